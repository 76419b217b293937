#!/usr/bin/env python3
"""SQS conformance: requests generated from SQS's own API model, on both protocols, against a running
service (.ci/sqs-conformance.sh).

    sqs_conformance.py ENDPOINT --query-model PATH [--seed N]

The model is botocore's data/sqs/2012-11-05/service-2.json (the botocore pinned in
.ci/clients/requirements-conformance.txt): its operations, their input members, which are required,
their types and enums, and the output shapes answers are checked against. The query protocol's
wire names (flattened lists, maps as Attribute.N.Name/Value, result wrappers) come from the query
model of botocore 1.33.13, the last that had them, as the service carries it (--query-model), and
valid requests are serialised by botocore's own QuerySerializer. The model itself carries no
min/max/pattern for SQS: the boundaries are SQS's documented ranges, listed below (RANGES, ...).

For every operation of the model, on AWS JSON 1.0 and on the query protocol, it sends:
  valid      a request as a real caller builds it (its queues created first, messages sent for
             receipt handles, a dead-letter queue for move tasks, ...), and variants (FIFO, traced)
  missing    each required member left out
  type       each member, and each member of a batch entry or attribute value, of a wrong type
             (a string for an integer, a list for a string, an object for a list, ...); on the
             query protocol, where every value is text, the forms a form can get wrong
  boundary   the documented ranges' ends and one beyond (VisibilityTimeout 0..43200,
             WaitTimeSeconds 0..20, batches 1..10 entries, names 1..80 characters, ...), each
             enum value of the model, a value outside the enum, bodies outside SQS's characters
  unknown    a valid request with a member the model does not have (ignored, as SQS does)
  envelope   once: no X-Amz-Target, an unknown action, another service's target, another
             Content-Type; a form without Action or with an unknown one
and checks each answer: a well-formed SQS success (the output shape's members and types, parsed by
botocore's own parser) or a well-formed SQS error (JSON: {"__type","message"} and
x-amzn-query-error; query: <ErrorResponse><Error><Type/><Code/><Message/></Error><RequestId/>)
with a code the model or SQS's common errors name; never a 5xx, never application/problem+json,
never a dropped connection. Cases whose outcome SQS fixes (a valid request succeeds, a missing
required member or a value out of range fails) are checked for it too; a batch entry SQS refuses
may be refused with the request or answered in the batch's Failed (SenderFault), as SQS documents.

Seeded and deterministic (queue names carry the seed and the run). Prints the count of requests
per operation and protocol and kind, every failure with its request and answer, and
'N passed, N failed'; exits 1 if any failed.
"""
import argparse
import base64
import collections
import http.client
import json
import random
import sys
import time
import urllib.parse
import uuid
import xml.etree.ElementTree as ET

import botocore
import botocore.awsrequest
import botocore.loaders
import botocore.model
import botocore.parsers
import botocore.serialize

NS = "{http://queue.amazonaws.com/doc/2012-11-05/}"
JSON_TYPE = "application/x-amz-json-1.0"
FORM_TYPE = "application/x-www-form-urlencoded; charset=utf-8"

# SQS's common errors (the API reference's "Common Errors", and the query protocol's request errors):
# any operation may answer them.
COMMON_ERRORS = {
    "AccessDeniedException", "IncompleteSignature", "InternalFailure", "InvalidAction", "InvalidClientTokenId",
    "InvalidParameterCombination", "InvalidParameterValue", "InvalidQueryParameter", "MalformedQueryString",
    "MissingAction", "MissingAuthenticationToken", "MissingParameter", "NotAuthorized", "OptInRequired",
    "RequestExpired", "ServiceUnavailable", "ThrottlingException", "ValidationError",
    # what AWS JSON 1.0 services answer a request that names no operation (no X-Amz-Target)
    "UnknownOperationException",
}

# Errors an operation answers beyond its list in the model: a receive's AttributeNames naming a queue
# attribute (the model's enum for that deprecated member is the queue attributes'), refused as an
# attribute name a receive does not know.
OPERATION_ERRORS = {"ReceiveMessage": {"InvalidAttributeName"}}

# SQS's documented ranges of whole-number members (the model has none): (min, max).
RANGES = {
    ("ReceiveMessage", "VisibilityTimeout"): (0, 43200),
    ("ReceiveMessage", "WaitTimeSeconds"): (0, 20),
    ("ReceiveMessage", "MaxNumberOfMessages"): (1, 10),
    ("ChangeMessageVisibility", "VisibilityTimeout"): (0, 43200),
    ("ChangeMessageVisibilityBatch", "Entries.VisibilityTimeout"): (0, 43200),
    ("SendMessage", "DelaySeconds"): (0, 900),
    ("SendMessageBatch", "Entries.DelaySeconds"): (0, 900),
    ("ListQueues", "MaxResults"): (1, 1000),
    ("ListDeadLetterSourceQueues", "MaxResults"): (1, 1000),
    ("ListMessageMoveTasks", "MaxResults"): (1, 10),
    ("StartMessageMoveTask", "MaxNumberOfMessagesPerSecond"): (1, 500),
}

# The queue attributes' documented ranges, on CreateQueue and SetQueueAttributes.
ATTRIBUTE_RANGES = {
    "VisibilityTimeout": (0, 43200),
    "DelaySeconds": (0, 900),
    "MessageRetentionPeriod": (60, 1209600),
    "MaximumMessageSize": (1024, 1048576),
    "ReceiveMessageWaitTimeSeconds": (0, 20),
}

MAX_MESSAGE_BYTES = 1048576
TRACE_HEADER = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"
BATCH_OPERATIONS = ("SendMessageBatch", "DeleteMessageBatch", "ChangeMessageVisibilityBatch")


class Answer:
    def __init__(self, status, headers, body, failure=None):
        self.status = status
        self.headers = headers
        self.body = body
        self.failure = failure  # the connection's failure, if there was no answer

    def __str__(self):
        if self.failure:
            return f"no answer: {self.failure}"
        text = self.body.decode("utf-8", "replace")
        return f"{self.status} {self.headers.get('Content-Type')} {text[:600]}"


class Service:
    """The service at ENDPOINT, over both protocols, one kept-alive connection each call."""

    def __init__(self, endpoint, json_model, query_model):
        parsed = urllib.parse.urlsplit(endpoint)
        self.host, self.port = parsed.hostname, parsed.port
        self.json_model = json_model
        self.query_model = query_model
        self.serializer = botocore.serialize.create_serializer("query", include_validation=False)
        self.connection = None

    def post(self, path, headers, body):
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
            try:
                self.connection.request("POST", path, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                answer = Answer(response.status, botocore.awsrequest.HeadersDict(response.getheaders()), data)
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                return answer
            except (http.client.HTTPException, OSError) as ex:
                self.close()
                if attempt == 2 or not isinstance(ex, (http.client.RemoteDisconnected, BrokenPipeError)):
                    return Answer(None, {}, b"", failure=repr(ex))
        raise AssertionError("unreachable")

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def json_body(self, members):
        return json.dumps(to_json(members)).encode()

    def send_json(self, operation, members, raw_body=None):
        body = raw_body if raw_body is not None else self.json_body(members)
        return self.post("/", {"X-Amz-Target": f"AmazonSQS.{operation}", "Content-Type": JSON_TYPE}, body)

    def form(self, operation, members, extra=()):
        """The form botocore's QuerySerializer makes of members, then extra (name, value) pairs."""
        operation_model = self.query_model.operation_model(operation)
        known = {k: v for k, v in members.items() if k in operation_model.input_shape.members}
        request = self.serializer.serialize_to_request(known, operation_model)
        return list(request["body"].items()) + list(extra)

    def send_query(self, operation, members, extra=()):
        body = urllib.parse.urlencode(self.form(operation, members, extra)).encode()
        return self.post("/", {"Content-Type": FORM_TYPE}, body)

    def call(self, operation, **members):
        """A set-up call over JSON that must succeed: its answer's members."""
        answer = self.send_json(operation, members)
        if answer.status != 200:
            raise SetupFailed(f"{operation} {json.dumps(to_json(members))[:300]} -> {answer}")
        return json.loads(answer.body) if answer.body else {}


class SetupFailed(Exception):
    pass


def to_json(value):
    """Members as JSON carries them: blobs (bytes) base64-encoded."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    return value


class Fixture:
    """The queues and messages valid requests need, made by set-up calls over JSON."""

    def __init__(self, service, run):
        self.service = service
        self.run = run
        self.count = 0
        self.arns = {}
        self.standard = self.queue("standard")
        self.receive = self.queue("receive")
        self.send = self.queue("send")
        self.handles = self.queue("handles", VisibilityTimeout="300")
        self.fifo = self.queue("fifo.fifo", FifoQueue="true", ContentBasedDeduplication="true")
        self.dlq = self.queue("dlq")
        self.source = self.queue("source", RedrivePolicy=self.redrive(self.dlq))
        self.destination = self.queue("destination")
        self.settable = self.queue("settable")

    def name(self, name):
        self.count += 1
        return f"{self.run}-{self.count}-{name}"

    def queue(self, name, **attributes):
        return self.service.call("CreateQueue", QueueName=self.name(name), Attributes=attributes)["QueueUrl"]

    def arn(self, url):
        """The queue's ARN, as the service answers it."""
        if url not in self.arns:
            self.arns[url] = self.service.call("GetQueueAttributes", QueueUrl=url,
                                               AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        return self.arns[url]

    def redrive(self, dlq):
        return json.dumps({"deadLetterTargetArn": self.arn(dlq), "maxReceiveCount": "5"})

    def receipt_handles(self, n, queue=None):
        queue = queue or self.handles
        self.service.call("SendMessageBatch", QueueUrl=queue,
                          Entries=[{"Id": f"m{i}", "MessageBody": f"message {i}"} for i in range(n)])
        handles = []
        for _ in range(20):
            got = self.service.call("ReceiveMessage", QueueUrl=queue, MaxNumberOfMessages=min(10, n - len(handles)),
                                    VisibilityTimeout=300).get("Messages", [])
            handles += [m["ReceiptHandle"] for m in got]
            if len(handles) >= n:
                return handles[:n]
        raise SetupFailed(f"{n} receipt handles asked, {len(handles)} received")

    def dead_letter_queue(self, messages=0):
        """A fresh dead-letter queue (a source's RedrivePolicy names it), holding messages."""
        dlq = self.queue("move-dlq")
        self.queue("move-source", RedrivePolicy=self.redrive(dlq))
        for i in range(messages):
            self.service.call("SendMessage", QueueUrl=dlq, MessageBody=f"dead {i}")
        return dlq


def valid_requests(fixture, operation):
    """The valid requests of an operation as callers build them: [(label, members)], made afresh
    (each call may create queues, send messages, start tasks)."""
    f = fixture
    attributes = {"VisibilityTimeout": "30", "DelaySeconds": "0", "MessageRetentionPeriod": "345600",
                  "MaximumMessageSize": "262144", "ReceiveMessageWaitTimeSeconds": "0"}
    message_attributes = {"text": {"DataType": "String", "StringValue": "v"},
                          "number": {"DataType": "Number", "StringValue": "42"},
                          "bytes": {"DataType": "Binary", "BinaryValue": b"\x00\x01bytes"}}
    if operation == "AddPermission":
        # a queue of its own: a policy's statements are capped
        return [("valid", dict(QueueUrl=f.queue("shared"), Label=f.name("label")[-60:].replace(".", "-"),
                               AWSAccountIds=["123456789012"], Actions=["SendMessage", "ReceiveMessage"]))]
    if operation == "RemovePermission":
        queue = f.queue("shared")
        label = f.name("label")[-60:].replace(".", "-")
        # the label to remove; if AddPermission fails, RemovePermission's answer still must be SQS's
        f.service.send_json("AddPermission", dict(QueueUrl=queue, Label=label, AWSAccountIds=["123456789012"],
                                                  Actions=["SendMessage"]))
        return [("valid", dict(QueueUrl=queue, Label=label))]
    if operation == "CancelMessageMoveTask":
        dlq = f.dead_letter_queue(messages=3)
        task = f.service.call("StartMessageMoveTask", SourceArn=f.arn(dlq), DestinationArn=f.arn(f.destination),
                              MaxNumberOfMessagesPerSecond=1)
        return [("valid", dict(TaskHandle=task["TaskHandle"]))]
    if operation == "ChangeMessageVisibility":
        return [("valid", dict(QueueUrl=f.handles, ReceiptHandle=f.receipt_handles(1)[0], VisibilityTimeout=60))]
    if operation == "ChangeMessageVisibilityBatch":
        handles = f.receipt_handles(2)
        return [("valid", dict(QueueUrl=f.handles, Entries=[
            {"Id": "first", "ReceiptHandle": handles[0], "VisibilityTimeout": 60},
            {"Id": "second", "ReceiptHandle": handles[1], "VisibilityTimeout": 120}]))]
    if operation == "CreateQueue":
        return [("valid", dict(QueueName=f.name("created"), Attributes=attributes, tags={"team": "conformance"})),
                ("valid-fifo", dict(QueueName=f.name("created.fifo"),
                                    Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true",
                                                "DeduplicationScope": "messageGroup",
                                                "FifoThroughputLimit": "perMessageGroupId"}))]
    if operation == "DeleteMessage":
        return [("valid", dict(QueueUrl=f.handles, ReceiptHandle=f.receipt_handles(1)[0]))]
    if operation == "DeleteMessageBatch":
        handles = f.receipt_handles(2)
        return [("valid", dict(QueueUrl=f.handles, Entries=[{"Id": "first", "ReceiptHandle": handles[0]},
                                                           {"Id": "second", "ReceiptHandle": handles[1]}]))]
    if operation == "DeleteQueue":
        return [("valid", dict(QueueUrl=f.queue("deleted")))]
    if operation == "GetQueueAttributes":
        return [("valid", dict(QueueUrl=f.standard, AttributeNames=["All"])),
                ("valid-fifo", dict(QueueUrl=f.fifo, AttributeNames=["All"]))]
    if operation == "GetQueueUrl":
        account, name = f.standard.rsplit("/", 2)[1:]
        return [("valid", dict(QueueName=name, QueueOwnerAWSAccountId=account))]
    if operation == "ListDeadLetterSourceQueues":
        return [("valid", dict(QueueUrl=f.dlq, MaxResults=10))]
    if operation == "ListMessageMoveTasks":
        return [("valid", dict(SourceArn=f.arn(f.dlq), MaxResults=10))]
    if operation == "ListQueueTags":
        return [("valid", dict(QueueUrl=f.standard))]
    if operation == "ListQueues":
        return [("valid", dict(QueueNamePrefix=f.run, MaxResults=1000))]
    if operation == "PurgeQueue":
        return [("valid", dict(QueueUrl=f.queue("purged")))]
    if operation == "ReceiveMessage":
        # a message waits, so that a long poll answers at once
        f.service.call("SendMessage", QueueUrl=f.receive, MessageBody="to receive",
                       MessageAttributes={"text": {"DataType": "String", "StringValue": "v"}})
        f.service.call("SendMessage", QueueUrl=f.fifo, MessageBody=f.name("fifo body"), MessageGroupId="g")
        return [("valid", dict(QueueUrl=f.receive, AttributeNames=["All"], MessageSystemAttributeNames=["All"],
                               MessageAttributeNames=["All"], MaxNumberOfMessages=10, VisibilityTimeout=30,
                               WaitTimeSeconds=1)),
                ("valid-fifo", dict(QueueUrl=f.fifo, MessageSystemAttributeNames=["All"], MaxNumberOfMessages=1,
                                    VisibilityTimeout=0, WaitTimeSeconds=1, ReceiveRequestAttemptId=f.name("attempt")))]
    if operation == "SendMessage":
        return [("valid", dict(QueueUrl=f.send, MessageBody="hello", DelaySeconds=0,
                               MessageAttributes=message_attributes, MessageGroupId="tenant-1")),
                ("valid-fifo", dict(QueueUrl=f.fifo, MessageBody="hello fifo", MessageGroupId="g",
                                    MessageDeduplicationId=f.name("dedup"))),
                ("valid-traced", dict(QueueUrl=f.send, MessageBody="traced", MessageSystemAttributes={
                    "AWSTraceHeader": {"DataType": "String", "StringValue": TRACE_HEADER}}))]
    if operation == "SendMessageBatch":
        return [("valid", dict(QueueUrl=f.send, Entries=[
                    {"Id": "first", "MessageBody": "one", "DelaySeconds": 0, "MessageAttributes": message_attributes},
                    {"Id": "second", "MessageBody": "two", "MessageGroupId": "tenant-2"}])),
                ("valid-fifo", dict(QueueUrl=f.fifo, Entries=[
                    {"Id": "first", "MessageBody": "one", "MessageGroupId": "g",
                     "MessageDeduplicationId": f.name("dedup")}]))]
    if operation == "SetQueueAttributes":
        return [("valid", dict(QueueUrl=f.settable, Attributes=dict(attributes, RedrivePolicy=f.redrive(f.dlq)))),
                ("valid-policy", dict(QueueUrl=f.settable, Attributes={"Policy": json.dumps({
                    "Version": "2012-10-17", "Statement": [{
                        "Sid": "conformance", "Effect": "Allow", "Principal": {"AWS": "123456789012"},
                        "Action": "SQS:SendMessage", "Resource": f.arn(f.settable)}]})}))]
    if operation == "StartMessageMoveTask":
        return [("valid", dict(SourceArn=f.arn(f.dead_letter_queue()), DestinationArn=f.arn(f.destination),
                               MaxNumberOfMessagesPerSecond=10))]
    if operation == "TagQueue":
        return [("valid", dict(QueueUrl=f.standard, Tags={"team": "conformance", "stage": "ci"}))]
    if operation == "UntagQueue":
        return [("valid", dict(QueueUrl=f.standard, TagKeys=["stage"]))]
    raise AssertionError(f"no valid request written for the model's operation {operation}")


class Case:
    """One request: members (a dict, None-valued members left out), what SQS answers
    (expect: success, error, or any well-formed answer; codes: the error codes it may answer),
    and for the query protocol extra form parameters or a member to send as its own form."""

    def __init__(self, operation, protocol, kind, label, members, expect, codes=None, extra=(), raw=None,
                 headers=None):
        self.operation, self.protocol, self.kind, self.label = operation, protocol, kind, label
        self.members, self.expect, self.codes, self.extra, self.raw = members, expect, codes, extra, raw
        self.headers = headers  # a raw request's own headers
        # a batch entry SQS refuses: the request refused, or that entry answered in Failed
        self.failed_entry = None


def wrong_values(shape):
    """JSON values of other types than the shape's."""
    kind = shape.type_name
    if kind == "string":
        return [("number", 7), ("list", ["x"]), ("object", {"x": "y"}), ("boolean", True)]
    if kind in ("integer", "long"):
        return [("string", "abc"), ("fraction", 1.5), ("list", [1])]
    if kind == "boolean":
        return [("string", "yes"), ("number", 1)]
    if kind == "blob":
        return [("number", 7), ("object", {"x": "y"})]
    if kind == "list":
        return [("string", "x"), ("object", {"x": "y"})]
    if kind == "map":
        return [("list", ["x"]), ("string", "x")]
    if kind == "structure":
        return [("string", "x"), ("list", ["x"])]
    raise AssertionError(kind)


def query_wrong_forms(query_shape, wire, required):
    """The ways a form gets a member's type wrong, as (label, extra pairs, expect)."""
    if query_shape is None:
        return []
    kind = query_shape.type_name
    if kind in ("integer", "long"):
        return [("string", [(wire, "abc")], "error"), ("fraction", [(wire, "1.5")], "error")]
    if kind in ("string", "blob"):
        # as a list: the member itself is absent
        return [("list", [(f"{wire}.1", "x")], "error" if required else "any")]
    if kind == "list":
        element = query_shape.member.serialization.get("name")
        name = element if (element and query_shape.serialization.get("flattened")) else wire
        return [("string", [(name, "x")], "error" if required else "any")]
    if kind == "map":
        return [("string", [(wire, "x")], "error" if required else "any")]
    return []


def generate(fixture, json_model, query_model, rng):
    """Every case, in a fixed order: per operation, per protocol, per kind."""
    for operation in json_model.operation_names:
        input_shape = json_model.operation_model(operation).input_shape
        query_input = query_model.operation_model(operation).input_shape
        for protocol in ("json", "query"):
            bases = valid_requests(fixture, operation)
            base_label, base = bases[0]
            for label, members in bases:
                yield Case(operation, protocol, "valid", label, members, "success")
            # each required member left out
            for member in input_shape.required_members:
                members = valid_requests(fixture, operation)[0][1]
                members.pop(member, None)
                yield Case(operation, protocol, "missing", member, members, "error")
            # each member of a wrong type, and each member of a batch entry or attribute value
            for member, shape in input_shape.members.items():
                if protocol == "json":
                    for label, value in wrong_values(shape):
                        members = valid_requests(fixture, operation)[0][1]
                        members[member] = value
                        yield Case(operation, protocol, "type", f"{member}:{label}", members, "error")
                    for path, inner in nested_members(shape):
                        if not has_path(base, member, path):
                            continue
                        for label, value in wrong_values(inner):
                            members = valid_requests(fixture, operation)[0][1]
                            set_path(members, member, path, value)
                            yield entry_case(Case(operation, protocol, "type", f"{member}.{path}:{label}", members,
                                                  "error"), member, path)
                else:
                    if query_input is None or member not in query_input.members:
                        continue  # not in the query protocol's model: its callers cannot send it
                    query_shape = query_input.members[member]
                    wire = query_shape.serialization.get("name", member)
                    required = member in input_shape.required_members
                    for label, extra, expect in query_wrong_forms(query_shape, wire, required):
                        members = valid_requests(fixture, operation)[0][1]
                        members.pop(member, None)
                        yield Case(operation, protocol, "type", f"{member}:{label}", members, expect, extra=extra)
                    for path, inner in nested_members(shape):
                        if inner.type_name in ("integer", "long") and has_path(base, member, path):
                            members = valid_requests(fixture, operation)[0][1]
                            set_path(members, member, path, "abc")
                            yield entry_case(Case(operation, protocol, "type", f"{member}.{path}:string", members,
                                                  "error"), member, path)
            yield from boundaries(fixture, operation, protocol, input_shape, rng)
            members = valid_requests(fixture, operation)[0][1]
            unknown = f"Conformance{rng.randrange(10 ** 6)}"
            if protocol == "json":
                members[unknown] = "ignored"
                yield Case(operation, protocol, "unknown", unknown, members, "success")
            else:
                yield Case(operation, protocol, "unknown", unknown, members, "success", extra=[(unknown, "ignored")])
        # a request that is not JSON at all, once an operation
        yield Case(operation, "json", "type", "body:not-json", {}, "error", raw=b"{not json")
        yield Case(operation, "json", "type", "body:array", {}, "error", raw=b"[]")
    # the envelope: requests SQS refuses before any operation
    envelope = "(envelope)"
    yield Case(envelope, "json", "envelope", "no X-Amz-Target", {}, "error", raw=b"{}",
               headers={"Content-Type": JSON_TYPE})
    yield Case(envelope, "json", "envelope", "X-Amz-Target: AmazonSQS.NoSuchAction", {}, "error", {"InvalidAction"},
               raw=b"{}", headers={"X-Amz-Target": "AmazonSQS.NoSuchAction", "Content-Type": JSON_TYPE})
    yield Case(envelope, "json", "envelope", "X-Amz-Target of another service", {}, "error", raw=b"{}",
               headers={"X-Amz-Target": "DynamoDB_20120810.ListTables", "Content-Type": JSON_TYPE})
    yield Case(envelope, "json", "envelope", "Content-Type: text/plain", {}, "error", raw=b"{}",
               headers={"X-Amz-Target": "AmazonSQS.ListQueues", "Content-Type": "text/plain"})
    yield Case(envelope, "query", "envelope", "Action=NoSuchAction", {}, "error", {"InvalidAction"},
               raw=b"Action=NoSuchAction&Version=2012-11-05", headers={"Content-Type": FORM_TYPE})
    yield Case(envelope, "query", "envelope", "no Action", {}, "error", {"MissingAction"},
               raw=b"Version=2012-11-05&QueueName=x", headers={"Content-Type": FORM_TYPE})


def entry_case(case, member, path):
    """A case whose wrong value is in a batch entry: that entry may be answered in Failed."""
    if member == "Entries" and path.startswith("0.") and path != "0.Id":
        case.failed_entry = case.members["Entries"][0]["Id"]
    return case


def nested_members(shape):
    """(path, shape) of the members inside a list of structures (batch entries) or a map of
    structures (message attribute values), one level down, and the second level's whole numbers."""
    if shape.type_name == "list" and shape.member.type_name == "structure":
        for name, inner in shape.member.members.items():
            yield f"0.{name}", inner
    if shape.type_name == "map" and shape.value.type_name == "structure":
        for name, inner in shape.value.members.items():
            yield f"*.{name}", inner


def has_path(members, member, path):
    value = members.get(member)
    if value is None:
        return False
    index, name = path.split(".", 1)
    if index == "0":
        return isinstance(value, list) and bool(value)
    return isinstance(value, dict) and bool(value)


def set_path(members, member, path, new):
    value = members[member]
    index, name = path.split(".", 1)
    target = value[0] if index == "0" else next(iter(value.values()))
    target[name] = new


def boundaries(fixture, operation, protocol, input_shape, rng):
    """The documented ranges' ends and one beyond, the model's enums, lengths, batch sizes."""
    f = fixture

    def case(label, change, expect, codes=None, base_index=0):
        members = valid_requests(f, operation)[base_index][1]
        change(members)
        return Case(operation, protocol, "boundary", label, members, expect, codes)

    for (op, member), (low, high) in RANGES.items():
        if op != operation:
            continue
        for value, expect in ((low - 1, "error"), (low, "success"), (high, "success"), (high + 1, "error")):
            if member.startswith("Entries."):
                name = member.split(".", 1)[1]
                entry = case(f"{member}={value}", lambda m, n=name, v=value: m.__setitem__("Entries", [
                    dict(m["Entries"][0], **{n: v})]), expect)
                if expect == "error":
                    entry.failed_entry = entry.members["Entries"][0]["Id"]
                yield entry
            else:
                yield case(f"{member}={value}", lambda m, n=member, v=value: m.__setitem__(n, v), expect)
    if operation in ("CreateQueue", "SetQueueAttributes"):
        for name, (low, high) in ATTRIBUTE_RANGES.items():
            for value, expect in ((low - 1, "error"), (low, "success"), (high, "success"), (high + 1, "error")):
                yield case(f"Attributes.{name}={value}",
                           lambda m, n=name, v=value: m.__setitem__("Attributes", {n: str(v)}), expect)
        yield case("Attributes.NotAnAttribute", lambda m: m.__setitem__("Attributes", {"NotAnAttribute": "1"}),
                   "error", {"InvalidAttributeName"})
        yield case("Attributes.VisibilityTimeout=abc",
                   lambda m: m.__setitem__("Attributes", {"VisibilityTimeout": "abc"}), "error")
    if operation == "CreateQueue":
        for length, expect in ((1, "success"), (80, "success"), (81, "error")):
            yield case(f"QueueName.length={length}",
                       lambda m, n=length: m.__setitem__("QueueName", (f.name("n").replace(".", "-") * 9)[-n:]), expect)
        yield case("QueueName=empty", lambda m: m.__setitem__("QueueName", ""), "error")
        yield case("QueueName=bad-character", lambda m: m.__setitem__("QueueName", f.name("a b")), "error")
        yield case("QueueName.fifo.length=80", lambda m: m.__setitem__("QueueName", f.name("f").replace(".", "-")[-75:]
                                                                       .rjust(75, "f") + ".fifo"), "success",
                   base_index=1)
        yield case("QueueName=fifo-without-suffix", lambda m: m.__setitem__("QueueName", f.name("nosuffix")),
                   "error", base_index=1)
        for key_length, value_length, expect in ((128, 256, "success"), (129, 0, "error"), (1, 257, "error")):
            yield case(f"tags.key={key_length},value={value_length}",
                       lambda m, k=key_length, v=value_length: m.__setitem__("tags", {"k" * k: "v" * v}), expect)
    if operation in ("GetQueueAttributes",):
        enum = input_shape.members["AttributeNames"].member.enum
        for name in enum:
            yield case(f"AttributeNames={name}", lambda m, n=name: m.__setitem__("AttributeNames", [n]), "success")
        yield case("AttributeNames=NotAnAttribute", lambda m: m.__setitem__("AttributeNames", ["NotAnAttribute"]),
                   "error", {"InvalidAttributeName"})
    if operation == "ReceiveMessage":
        # the message system attributes, under both names (AttributeNames's enum in the model is the
        # queue attributes', which SQS's documentation does not list for a receive: any answer)
        system = input_shape.members["MessageSystemAttributeNames"].member.enum
        queue_only = [n for n in input_shape.members["AttributeNames"].member.enum if n not in system]
        for member in ("AttributeNames", "MessageSystemAttributeNames"):
            if protocol == "query" and member == "MessageSystemAttributeNames":
                continue
            for name in system:
                yield case(f"{member}={name}", lambda m, k=member, n=name: m.__setitem__(k, [n]), "success")
        for name in queue_only:
            yield case(f"AttributeNames={name}", lambda m, n=name: m.__setitem__("AttributeNames", [n]), "any")
        for length, expect in ((128, "success"), (129, "error")):
            yield case(f"ReceiveRequestAttemptId.length={length}",
                       lambda m, n=length: m.__setitem__("ReceiveRequestAttemptId", "a" * n), expect, base_index=1)
    if operation == "SendMessage":
        yield case("MessageBody.length=1", lambda m: m.__setitem__("MessageBody", "x"), "success")
        yield case("MessageBody=empty", lambda m: m.__setitem__("MessageBody", ""), "error")
        yield case(f"MessageBody.bytes={MAX_MESSAGE_BYTES}",
                   lambda m: (m.pop("MessageAttributes"), m.__setitem__("MessageBody", "b" * MAX_MESSAGE_BYTES)),
                   "success")
        yield case(f"MessageBody.bytes={MAX_MESSAGE_BYTES + 1}",
                   lambda m: (m.pop("MessageAttributes"), m.__setitem__("MessageBody", "b" * (MAX_MESSAGE_BYTES + 1))),
                   "error")
        for label, text in (("U+0000", "a\u0000b"), ("U+FFFE", "a\ufffeb"), ("U+001F", "a\u001fb")):
            yield case(f"MessageBody.character={label}", lambda m, t=text: m.__setitem__("MessageBody", t), "error",
                       {"InvalidMessageContents"})
        yield case("MessageBody.character=U+10FFFF", lambda m: m.__setitem__("MessageBody", "a\U0010ffffb"), "success")
        for count, expect in ((10, "success"), (11, "error")):
            yield case(f"MessageAttributes.count={count}",
                       lambda m, n=count: m.__setitem__("MessageAttributes", {
                           f"a{i}": {"DataType": "String", "StringValue": "v"} for i in range(n)}), expect)
        for length, expect in ((256, "success"), (257, "error")):
            yield case(f"MessageAttributes.name.length={length}",
                       lambda m, n=length: m.__setitem__("MessageAttributes", {
                           "a" * n: {"DataType": "String", "StringValue": "v"}}), expect)
        yield case("MessageAttributes.DataType=Unknown", lambda m: m.__setitem__("MessageAttributes", {
            "a": {"DataType": "Unknown", "StringValue": "v"}}), "error")
        for member in ("MessageGroupId", "MessageDeduplicationId"):
            for length, expect in ((128, "success"), (129, "error")):
                yield case(f"{member}.length={length}", lambda m, k=member, n=length: m.__setitem__(k, "i" * n),
                           expect, base_index=1)
        yield case("MessageSystemAttributes.NotASystemAttribute", lambda m: m.__setitem__(
            "MessageSystemAttributes", {"NotASystemAttribute": {"DataType": "String", "StringValue": "v"}}), "error",
                   base_index=2)
    if operation in BATCH_OPERATIONS:
        for count, expect, codes in ((0, "error", {"EmptyBatchRequest"}), (1, "success", None),
                                     (10, "success", None), (11, "error", {"TooManyEntriesInBatchRequest"})):
            yield case(f"Entries.count={count}", lambda m, n=count: m.__setitem__("Entries", entries(f, operation, n)),
                       expect, codes)
        yield case("Entries.Id=duplicate", lambda m: [e.__setitem__("Id", "same") for e in m["Entries"]], "error",
                   {"BatchEntryIdsNotDistinct"})
        for label, entry_id, expect, codes in (("length=80", "i" * 80, "success", None),
                                              ("length=81", "i" * 81, "error", {"InvalidBatchEntryId"}),
                                              ("character", "a.b", "error", {"InvalidBatchEntryId"})):
            yield case(f"Entries.Id.{label}", lambda m, i=entry_id: m.__setitem__("Entries", [
                dict(m["Entries"][0], Id=i)]), expect, codes)
    if operation == "TagQueue":
        for key_length, value_length, expect in ((128, 256, "success"), (129, 0, "error"), (1, 257, "error")):
            yield case(f"Tags.key={key_length},value={value_length}",
                       lambda m, k=key_length, v=value_length: m.__setitem__("Tags", {"k" * k: "v" * v}), expect)
        yield case("Tags.key=aws:reserved", lambda m: m.__setitem__("Tags", {"aws:x": "v"}), "error")
    if operation == "AddPermission":
        for length, expect in ((80, "success"), (81, "error")):
            yield case(f"Label.length={length}",
                       lambda m, n=length: m.__setitem__("Label", (f.name("l").replace(".", "-") * 9)[-n:]), expect)
        yield case("Label=bad-character", lambda m: m.__setitem__("Label", "a b"), "error")
        yield case("Actions=empty", lambda m: m.__setitem__("Actions", []), "error")
    if operation in ("ListQueueTags", "DeleteQueue", "PurgeQueue", "GetQueueAttributes", "SendMessage"):
        yield case("QueueUrl=not-a-queue", lambda m: m.__setitem__("QueueUrl", f"{f.standard}-none"), "error",
                   {"QueueDoesNotExist"})
    if operation in ("ListMessageMoveTasks", "StartMessageMoveTask"):
        yield case("SourceArn=not-a-queue", lambda m: m.__setitem__("SourceArn", f"{f.arn(f.dlq)}-none"), "error",
                   {"ResourceNotFoundException"})
    if operation == "CancelMessageMoveTask":
        unknown = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        yield case("TaskHandle=unknown", lambda m: m.__setitem__("TaskHandle", unknown), "error",
                   {"ResourceNotFoundException"})
        yield case("TaskHandle=malformed", lambda m: m.__setitem__("TaskHandle", "no-such-task"), "error")


def entries(fixture, operation, n):
    if n == 0:
        return []
    if operation == "SendMessageBatch":
        return [{"Id": f"e{i}", "MessageBody": f"body {i}"} for i in range(n)]
    handles = fixture.receipt_handles(min(n, 10))
    handles += handles[:max(0, n - 10)]
    if operation == "DeleteMessageBatch":
        return [{"Id": f"e{i}", "ReceiptHandle": h} for i, h in enumerate(handles)]
    return [{"Id": f"e{i}", "ReceiptHandle": h, "VisibilityTimeout": 30} for i, h in enumerate(handles)]


class Checker:
    """Whether an answer is a well-formed SQS success or error of the case's operation."""

    def __init__(self, json_model, query_model):
        self.json_model = json_model
        self.query_model = query_model
        self.json_parser = botocore.parsers.create_parser("json")
        self.query_parser = botocore.parsers.create_parser("query")
        # the query protocol's code of each error shape (its own name where the model gives none)
        self.legacy = {}
        for name in query_model.shape_names:
            shape = query_model.shape_for(name)
            if shape.metadata.get("exception"):
                self.legacy[name] = shape.metadata.get("error", {}).get("code", name)
        self.legacy.update({code: code for code in COMMON_ERRORS})
        self.by_legacy = {legacy: name for name, legacy in self.legacy.items()}

    def allowed(self, case):
        """The error codes an operation may answer: its own in the model, and the common ones."""
        if case.operation not in self.json_model.operation_names:
            return COMMON_ERRORS
        errors = self.json_model.operation_model(case.operation).error_shapes
        return COMMON_ERRORS | OPERATION_ERRORS.get(case.operation, set()) | {shape.name for shape in errors}

    def check(self, case, answer):
        """(problems, the error code or None)."""
        if answer.failure:
            return [f"no answer ({answer.failure})"], None
        problems = []
        content_type = answer.headers.get("Content-Type", "")
        if "problem+json" in content_type:
            problems.append("the REST API's problem+json, not an SQS answer")
        if answer.status >= 500:
            problems.append(f"a {answer.status}")
        check = self.check_json if case.protocol == "json" else self.check_query
        code = None
        try:
            code = check(case, answer, problems)
        except Exception as ex:  # the answer does not parse: that is the finding
            problems.append(f"not well-formed: {ex!r}")
        if not problems:
            if case.expect == "success" and code is not None:
                problems.append(f"SQS answers this with a success; the service answered the error {code}")
            if case.expect == "error" and code is None and not self.failed(case, answer):
                problems.append("SQS refuses this; the service answered a success" +
                                (f" without entry {case.failed_entry} in Failed" if case.failed_entry else ""))
            if code is not None and case.codes and code not in case.codes:
                problems.append(f"SQS answers {'/'.join(sorted(case.codes))}; the service answered {code}")
        return problems, code

    def failed(self, case, answer):
        """Whether the case's refused batch entry is answered in Failed, the sender's fault."""
        if case.failed_entry is None:
            return False
        if case.protocol == "json":
            failed = json.loads(answer.body).get("Failed", [])
        else:
            operation = self.query_model.operation_model(case.operation)
            failed = self.query_parser.parse(self.response(answer), operation.output_shape).get("Failed", [])
        return any(entry.get("Id") == case.failed_entry and entry.get("SenderFault") is True for entry in failed)

    def response(self, answer):
        return {"status_code": answer.status, "headers": answer.headers, "body": answer.body}

    def output(self, model, case):
        """The operation's output shape (None for none, or for a request of no operation)."""
        if case.operation not in model.operation_names:
            return None
        return model.operation_model(case.operation).output_shape

    def check_json(self, case, answer, problems):
        output_shape = self.output(self.json_model, case)
        if answer.status == 200:
            if not answer.headers.get("Content-Type", "").startswith(JSON_TYPE):
                problems.append(f"a success of Content-Type {answer.headers.get('Content-Type')}")
            body = json.loads(answer.body) if answer.body else {}
            if output_shape is None:
                if body:
                    problems.append(f"a body where the model has no output: {body}")
            else:
                shape_problems(output_shape, body, "", problems)
                self.json_parser.parse(self.response(answer), output_shape)
            return None
        if not 400 <= answer.status < 500:
            problems.append(f"status {answer.status}")
        body = json.loads(answer.body)
        if set(body) - {"__type", "message"} or not isinstance(body.get("__type"), str) \
                or not isinstance(body.get("message"), str):
            problems.append(f"not an SQS error document {{\"__type\",\"message\"}}: {body}")
            return "?"
        code = body["__type"].rsplit("#", 1)[-1]
        if not body["__type"].startswith("com.amazonaws.sqs#"):
            problems.append(f"__type {body['__type']} is not com.amazonaws.sqs#<Code>")
        if code not in self.allowed(case):
            problems.append(f"error code {code} is neither {case.operation}'s in the model nor a common SQS error")
        query_error = answer.headers.get("x-amzn-query-error", "")
        legacy, _, fault = query_error.partition(";")
        expected = self.legacy.get(code, code)
        if legacy != expected or fault != ("Sender" if answer.status < 500 else "Receiver"):
            problems.append(f"x-amzn-query-error {query_error!r} is not '{expected};Sender'")
        parsed = self.json_parser.parse(self.response(answer), output_shape)
        if not parsed.get("Error", {}).get("Code"):
            problems.append(f"botocore reads no error code: {parsed}")
        return code

    def check_query(self, case, answer, problems):
        output_shape = self.output(self.query_model, case)
        root = ET.fromstring(answer.body)
        if answer.status == 200:
            if root.tag != f"{NS}{case.operation}Response":
                problems.append(f"root element {root.tag}, not {case.operation}Response")
            request_id = root.findtext(f"{NS}ResponseMetadata/{NS}RequestId")
            if not request_id:
                problems.append("no ResponseMetadata/RequestId")
            if output_shape is not None:
                wrapper = output_shape.serialization.get("resultWrapper")
                result = root.find(f"{NS}{wrapper}")
                if result is None:
                    problems.append(f"no {wrapper}")
                else:
                    xml_problems(output_shape, result, problems)
                parsed = self.query_parser.parse(self.response(answer), output_shape)
                parsed.pop("ResponseMetadata", None)
                json_output = self.json_model.operation_model(case.operation).output_shape
                shape_problems(json_output, to_json(parsed), "", problems, parsed_query=True)
            return None
        if not 400 <= answer.status < 500:
            problems.append(f"status {answer.status}")
        if root.tag != f"{NS}ErrorResponse":
            problems.append(f"root element {root.tag}, not ErrorResponse")
            return "?"
        error = root.find(f"{NS}Error")
        kind = root.findtext(f"{NS}Error/{NS}Type")
        code = root.findtext(f"{NS}Error/{NS}Code")
        message = root.findtext(f"{NS}Error/{NS}Message")
        if error is None or kind not in ("Sender", "Receiver") or not code or message is None \
                or not root.findtext(f"{NS}RequestId"):
            problems.append("not <ErrorResponse><Error><Type>Sender|Receiver</Type><Code/><Message/></Error>"
                            "<RequestId/></ErrorResponse>")
        if (kind == "Sender") != (answer.status < 500):
            problems.append(f"Type {kind} with status {answer.status}")
        # the JSON code of the same error, for the operation's codes and the case's
        json_code = self.by_legacy.get(code, code)
        if json_code not in self.allowed(case):
            problems.append(f"error code {code} is neither {case.operation}'s in the query model nor a common "
                            "SQS error")
        parsed = self.query_parser.parse(self.response(answer), output_shape)
        if parsed.get("Error", {}).get("Code") != code:
            problems.append(f"botocore reads the error as {parsed.get('Error')}")
        return json_code


def shape_problems(shape, value, path, problems, parsed_query=False):
    """Whether value is what the JSON protocol carries for shape: member names and types."""
    kind = shape.type_name
    where = path or "the answer"
    if kind == "structure":
        if not isinstance(value, dict):
            problems.append(f"{where}: {type(value).__name__}, the model says structure")
            return
        for name, inner in value.items():
            if name not in shape.members:
                problems.append(f"{where}: member {name} is not in the model's {shape.name}")
            else:
                shape_problems(shape.members[name], inner, f"{path}.{name}" if path else name, problems, parsed_query)
        for name in shape.required_members:
            if name not in value and not (parsed_query and shape.members[name].type_name == "list"):
                problems.append(f"{where}: required member {name} of {shape.name} is missing")
    elif kind == "list":
        if not isinstance(value, list):
            problems.append(f"{where}: {type(value).__name__}, the model says list")
            return
        for i, inner in enumerate(value):
            shape_problems(shape.member, inner, f"{path}[{i}]", problems, parsed_query)
    elif kind == "map":
        if not isinstance(value, dict):
            problems.append(f"{where}: {type(value).__name__}, the model says map")
            return
        for key, inner in value.items():
            if shape.key.enum and key not in shape.key.enum:
                problems.append(f"{where}: key {key} is not in the model's {shape.key.name}")
            shape_problems(shape.value, inner, f"{path}.{key}", problems, parsed_query)
    elif kind in ("integer", "long"):
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(f"{where}: {value!r}, the model says {kind}")
    elif kind == "boolean":
        if not isinstance(value, bool):
            problems.append(f"{where}: {value!r}, the model says boolean")
    elif kind in ("string", "blob"):
        if not isinstance(value, str):
            problems.append(f"{where}: {value!r}, the model says {kind}")


def xml_problems(shape, element, problems):
    """Whether the XML element's children are the query model's wire names for shape's members."""
    names = {}
    for name, member in shape.members.items():
        wire = member.serialization.get("name", name)
        names[wire] = member
        if member.type_name == "list" and member.serialization.get("flattened"):
            names[member.member.serialization.get("name", wire)] = member.member
    for child in element:
        tag = child.tag.replace(NS, "")
        if tag not in names:
            problems.append(f"<{element.tag.replace(NS, '')}> holds <{tag}>, which the query model does not name")
            continue
        inner = names[tag]
        if inner.type_name == "structure":
            xml_problems(inner, child, problems)


def describe(service, case):
    if case.raw is not None:
        return f"POST / {case.headers or case.operation} body {case.raw!r}"
    if case.protocol == "json":
        return f"POST / X-Amz-Target: AmazonSQS.{case.operation} {json.dumps(to_json(case.members))[:600]}"
    form = urllib.parse.urlencode(service.form(case.operation, case.members, case.extra))
    return f"POST / {form[:600]}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("endpoint")
    parser.add_argument("--query-model", required=True, help="the service's query-protocol model (JSON)")
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args()

    loader = botocore.loaders.Loader()
    json_model = botocore.model.ServiceModel(loader.load_service_model("sqs", "service-2"), "sqs")
    with open(args.query_model, encoding="utf-8") as source:
        query_model = botocore.model.ServiceModel(json.load(source), "sqs")
    rng = random.Random(args.seed)
    run = f"conf{args.seed}-{int(time.time()) % 100000}"
    service = Service(args.endpoint, json_model, query_model)
    checker = Checker(json_model, query_model)
    print(f"sqs-conformance: botocore {botocore.__version__}'s SQS model, {len(json_model.operation_names)} "
          f"operations, seed {args.seed}, against {args.endpoint}")

    counts = collections.OrderedDict()
    failures = []
    started = time.monotonic()
    fixture = Fixture(service, run)
    cases = generate(fixture, json_model, query_model, rng)
    while True:
        try:
            case = next(cases)
        except StopIteration:
            break
        except SetupFailed as ex:
            # a set-up call the service refused: the cases after it cannot be built
            failures.append(("set-up", "", "", str(ex), None))
            break
        if case.headers is not None:
            answer = service.post("/", case.headers, case.raw)
        elif case.raw is not None:
            answer = service.send_json(case.operation, None, raw_body=case.raw)
        elif case.protocol == "json":
            answer = service.send_json(case.operation, case.members)
        else:
            answer = service.send_query(case.operation, case.members, case.extra)
        key = (case.operation, case.protocol)
        counts.setdefault(key, collections.Counter())[case.kind] += 1
        problems, code = checker.check(case, answer)
        if problems:
            failures.append((f"{case.operation} {case.protocol} {case.kind} {case.label}", describe(service, case),
                             str(answer), "; ".join(problems), code))
    service.close()
    elapsed = time.monotonic() - started

    kinds = ("valid", "missing", "type", "boundary", "unknown", "envelope")
    print(f"{'operation':32} {'protocol':8} " + " ".join(f"{k:>8}" for k in kinds) + f" {'total':>6}")
    total = collections.Counter()
    for (operation, protocol), counter in counts.items():
        print(f"{operation:32} {protocol:8} " + " ".join(f"{counter[k]:>8}" for k in kinds)
              + f" {sum(counter.values()):>6}")
        total.update(counter)
    requests = sum(total.values())
    print(f"{'all':32} {'':8} " + " ".join(f"{total[k]:>8}" for k in kinds) + f" {requests:>6}")
    print(f"sqs-conformance: {requests} generated requests: {len(json_model.operation_names)} operations x 2 "
          f"protocols, and the envelope; {elapsed:.1f} s")
    for name, request, answer, problems, _ in failures:
        print(f"FAIL {name}\n  request: {request}\n  answer:  {answer}\n  why:     {problems}")
    print(f"{requests - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
