#!/usr/bin/env python3
"""Writes the SQS API model the query protocol face reads (QueryModel): the operations and shapes
of SQS's query-protocol model, without documentation, enums and bounds.

The source is botocore's data/sqs/2012-11-05/service-2.json(.gz) from a release before SQS moved
to AWS JSON 1.0 (botocore 1.33.13 is the last; later models dropped the query protocol's XML names):

    pip download --no-deps -d /tmp/botocore botocore==1.33.13
    unzip -o -q -d /tmp/botocore /tmp/botocore/botocore-1.33.13-py3-none-any.whl 'botocore/data/sqs/*'
    scripts/sqs/query-model.py /tmp/botocore/botocore/data/sqs/2012-11-05/service-2.json.gz \
        > src/main/resources/io/github/qsbench/sqs/sqs-query-2012-11-05.json

Kept: metadata (apiVersion, protocol, xmlNamespace); each operation's input and output shapes and
result wrapper; each shape's type, members, list member, map key and value (shape, locationName,
flattened), its own locationName and flattened, and whether it is an error, with its code, status
and fault (QueryModelTests checks SqsError against them).
"""
import gzip
import json
import sys

REF_KEYS = ("shape", "locationName", "flattened")
SHAPE_KEYS = ("type", "locationName", "flattened", "exception", "error")


def ref(value):
    return {k: value[k] for k in REF_KEYS if k in value}


def shape(value):
    kept = {k: value[k] for k in SHAPE_KEYS if k in value}
    for part in ("member", "key", "value"):
        if part in value:
            kept[part] = ref(value[part])
    if "members" in value:
        kept["members"] = {name: ref(member) for name, member in value["members"].items()}
    return kept


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as source:
        model = json.load(source)
    if model["metadata"].get("protocol") != "query":
        sys.exit(f"{path} is not a query-protocol model: use botocore 1.33.13 or older")
    operations = {}
    for name, operation in sorted(model["operations"].items()):
        kept = {"input": ref(operation["input"])}
        if "output" in operation:
            kept["output"] = {k: operation["output"][k] for k in ("shape", "resultWrapper")}
        operations[name] = kept
    lines = ['{"metadata":' + json.dumps({k: model["metadata"][k] for k in ("apiVersion", "protocol", "xmlNamespace")}) + ",",
             '"operations":{']
    lines += [f'{json.dumps(n)}:{json.dumps(o)},' for n, o in operations.items()]
    lines[-1] = lines[-1].rstrip(",")
    lines += ['},', '"shapes":{']
    lines += [f'{json.dumps(n)}:{json.dumps(shape(s))},' for n, s in sorted(model["shapes"].items())]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["}}"]
    print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1])
