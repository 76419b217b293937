#!/usr/bin/env python3
"""SQS scenarios through boto3 and the AWS CLI v1 against a running service (.ci/sqs-clients.sh).

    sqs_scenarios.py ENDPOINT --protocol json|query [--key ID:SECRET --other-key ID:SECRET:ACCOUNT]

The protocol is the one the installed botocore speaks (a release before 1.34 speaks the query
protocol, later ones AWS JSON 1.0); it is checked, so that a run meant to go through the query
protocol cannot pass on the other. Each scenario is one function marked @scenario, given a Context
(the boto3 client, queues named for this run, the CLI), and fails by raising; they run in the order
written. A new part of the surface (FIFO queues, tags, move tasks) is one more function.
With --key (a service started with qs.security.sigv4.enabled, docs/security.md) every call signs
with that key, the owner's, and the @signed scenarios run too: wrong secrets, unknown keys,
presigned URLs, and what --other-key's account may do on a queue by its policy.
Prints one line a scenario and 'N passed, N failed'; exits 1 if any failed.
"""
import argparse
import hashlib
import json
import os
import struct
import subprocess
import sys
import threading
import time
import traceback
import urllib.error
import urllib.request
import uuid

import boto3
import botocore
import botocore.config

SCENARIOS = []
SIGNED_SCENARIOS = []


def scenario(function):
    SCENARIOS.append(function)
    return function


def signed(function):
    """A scenario of a service that checks signatures: run only with --key."""
    SIGNED_SCENARIOS.append(function)
    return function


class Context:
    def __init__(self, endpoint, run, key=("any", "any"), other=None):
        self.endpoint = endpoint
        self.run = run
        self.key = key
        self.other = other
        self.sqs = self.client(*key)

    def client(self, key_id, secret):
        return boto3.client("sqs", endpoint_url=self.endpoint, region_name="us-east-1",
                            aws_access_key_id=key_id, aws_secret_access_key=secret)

    def name(self, name):
        """A queue name of this run: runs against one service do not meet."""
        return f"{self.run}-{name}"

    def queue(self, name, **attributes):
        return self.sqs.create_queue(QueueName=self.name(name), Attributes=attributes)["QueueUrl"]

    def counts(self, url):
        attributes = self.sqs.get_queue_attributes(
            QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]
        )["Attributes"]
        return int(attributes["ApproximateNumberOfMessages"]), int(attributes["ApproximateNumberOfMessagesNotVisible"])

    def cli(self, *args, expect_failure=False, key=None):
        """`aws sqs ARGS` with this botocore's CLI; its JSON output, or its stderr when it must fail."""
        key_id, secret = key or self.key
        env = dict(os.environ, AWS_ACCESS_KEY_ID=key_id, AWS_SECRET_ACCESS_KEY=secret, AWS_DEFAULT_REGION="us-east-1",
                   AWS_CONFIG_FILE=os.devnull, AWS_SHARED_CREDENTIALS_FILE=os.devnull)
        done = subprocess.run([sys.executable, "-m", "awscli", "--endpoint-url", self.endpoint, "--output", "json",
                               "sqs", *args], capture_output=True, text=True, env=env, timeout=60)
        if expect_failure:
            check(done.returncode != 0, f"aws sqs {args[0]} should fail: {done.stdout}")
            return done.stderr
        check(done.returncode == 0, f"aws sqs {' '.join(args)}: {done.stderr}")
        return json.loads(done.stdout) if done.stdout.strip() else {}


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def equal(actual, expected, what):
    check(actual == expected, f"{what}: expected {expected!r}, was {actual!r}")


def error_code(call):
    """The SQS error code a call fails with."""
    try:
        call()
    except botocore.exceptions.ClientError as error:
        return error.response["Error"]["Code"]
    raise AssertionError("the call should have failed")


def md5_of_attributes(attributes):
    """MD5OfMessageAttributes as SQS documents it: by name, each a length-prefixed name, type, a
    transport byte (1 text, 2 binary) and length-prefixed value."""
    digest = hashlib.md5()
    for name in sorted(attributes):
        attribute = attributes[name]
        binary = "BinaryValue" in attribute
        value = attribute["BinaryValue"] if binary else attribute["StringValue"].encode()
        for part in (name.encode(), attribute["DataType"].encode()):
            digest.update(struct.pack(">I", len(part)) + part)
        digest.update(bytes([2 if binary else 1]) + struct.pack(">I", len(value)) + value)
    return digest.hexdigest()


@scenario
def queues_and_attributes(c):
    url = c.queue("orders", VisibilityTimeout="45", DelaySeconds="0")
    equal(url, f"{c.endpoint}/000000000000/{c.name('orders')}", "queue URL")
    equal(c.sqs.get_queue_url(QueueName=c.name("orders"))["QueueUrl"], url, "GetQueueUrl")
    equal(c.queue("orders", VisibilityTimeout="45"), url, "CreateQueue again")
    c.queue("other")
    listed = c.sqs.list_queues(QueueNamePrefix=c.name(""))["QueueUrls"]
    equal(sorted(listed), sorted([url, f"{c.endpoint}/000000000000/{c.name('other')}"]), "ListQueues")
    c.sqs.set_queue_attributes(QueueUrl=url, Attributes={"MessageRetentionPeriod": "3600"})
    attributes = c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    equal(attributes["VisibilityTimeout"], "45", "VisibilityTimeout")
    equal(attributes["MessageRetentionPeriod"], "3600", "MessageRetentionPeriod")
    equal(attributes["QueueArn"], f"arn:aws:sqs:us-east-1:000000000000:{c.name('orders')}", "QueueArn")
    equal(error_code(lambda: c.sqs.get_queue_url(QueueName=c.name("missing"))),
          "AWS.SimpleQueueService.NonExistentQueue", "missing queue")
    equal(error_code(lambda: c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["Colour"])),
          "InvalidAttributeName", "unknown attribute")


@scenario
def send_receive_delete(c):
    url = c.queue("cycle")
    body = "hello from boto3: åäö € <&>\r\n"
    attributes = {"kind": {"DataType": "String", "StringValue": "order ✓"},
                  "count": {"DataType": "Number", "StringValue": "42"},
                  "blob": {"DataType": "Binary", "BinaryValue": b"\x00\x01\xff"}}
    sent = c.sqs.send_message(QueueUrl=url, MessageBody=body, MessageAttributes=attributes)
    equal(sent["MD5OfMessageBody"], hashlib.md5(body.encode()).hexdigest(), "MD5OfMessageBody")
    equal(sent["MD5OfMessageAttributes"], md5_of_attributes(attributes), "MD5OfMessageAttributes")

    messages = c.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, AttributeNames=["All"],
                                     MessageAttributeNames=["All"])["Messages"]
    equal(len(messages), 1, "received")
    message = messages[0]
    equal(message["MessageId"], sent["MessageId"], "MessageId")
    equal(message["Body"], body, "Body")
    equal(message["MD5OfBody"], sent["MD5OfMessageBody"], "MD5OfBody")
    equal(message["MessageAttributes"], attributes, "MessageAttributes")
    equal(message["MD5OfMessageAttributes"], sent["MD5OfMessageAttributes"], "MD5OfMessageAttributes")
    equal(message["Attributes"]["ApproximateReceiveCount"], "1", "ApproximateReceiveCount")
    equal(c.counts(url), (0, 1), "counts while in flight")
    c.sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    c.sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    equal(c.counts(url), (0, 0), "counts once deleted (twice)")
    equal(c.sqs.receive_message(QueueUrl=url).get("Messages", []), [], "nothing left")


TRACE = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"


@scenario
def trace_header_and_characters(c):
    url = c.queue("traced")
    system = {"AWSTraceHeader": {"DataType": "String", "StringValue": TRACE}}
    sent = c.sqs.send_message(QueueUrl=url, MessageBody="traced", MessageSystemAttributes=system)
    equal(sent["MD5OfMessageSystemAttributes"], md5_of_attributes(system), "MD5OfMessageSystemAttributes")
    batch = c.sqs.send_message_batch(QueueUrl=url, Entries=[
        {"Id": "t", "MessageBody": "batched", "MessageSystemAttributes": system},
        {"Id": "nul", "MessageBody": "a\x00b"}])
    equal([(e["Id"], e.get("MD5OfMessageSystemAttributes")) for e in batch["Successful"]],
          [("t", md5_of_attributes(system))], "traced batch entry")
    equal([(e["Id"], e["Code"], e["SenderFault"]) for e in batch["Failed"]],
          [("nul", "InvalidMessageContents", True)], "refused batch entry")
    messages = c.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10,
                                     AttributeNames=["AWSTraceHeader"])["Messages"]
    equal([(m["Body"], m["Attributes"]) for m in messages],
          [("traced", {"AWSTraceHeader": TRACE}), ("batched", {"AWSTraceHeader": TRACE})], "trace headers")
    equal(error_code(lambda: c.sqs.send_message(QueueUrl=url, MessageBody="x", MessageSystemAttributes={
        "SentTimestamp": {"DataType": "String", "StringValue": "1"}})), "InvalidParameterValue", "other name")
    for refused in ("\x00", "\x08", "\x0b", "\x1f", "\ufffe", "\uffff"):
        equal(error_code(lambda text="a" + refused + "b": c.sqs.send_message(QueueUrl=url, MessageBody=text)),
              "InvalidMessageContents", f"body with U+{ord(refused):04X}")
        equal(error_code(lambda text=refused: c.sqs.send_message(QueueUrl=url, MessageBody="x", MessageAttributes={
            "k": {"DataType": "String", "StringValue": text}})), "InvalidMessageContents",
            f"attribute with U+{ord(refused):04X}")
    allowed = "\t\n\r \ud7ff\ue000\ufffd\U00010000\U0010ffff"
    attributes = {"k": {"DataType": "String", "StringValue": allowed}}
    c.sqs.send_message(QueueUrl=url, MessageBody=allowed, MessageAttributes=attributes)
    [message] = c.sqs.receive_message(QueueUrl=url, MessageAttributeNames=["All"])["Messages"]
    equal(message["Body"], allowed, "the allowed bounds, carried")
    equal(message["MessageAttributes"], attributes, "the allowed bounds in an attribute")


@scenario
def batches(c):
    url = c.queue("batch")
    sent = c.sqs.send_message_batch(QueueUrl=url, Entries=[
        {"Id": "a", "MessageBody": "first", "MessageAttributes": {"n": {"DataType": "Number", "StringValue": "1"}}},
        {"Id": "b", "MessageBody": "second"},
        {"Id": "c", "MessageBody": "too late", "DelaySeconds": 901}])
    equal([entry["Id"] for entry in sent["Successful"]], ["a", "b"], "sent")
    equal([(entry["Id"], entry["Code"], entry["SenderFault"]) for entry in sent["Failed"]],
          [("c", "InvalidParameterValue", True)], "failed entry")
    messages = c.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
    equal([message["Body"] for message in messages], ["first", "second"], "received in order")
    changed = c.sqs.change_message_visibility_batch(QueueUrl=url, Entries=[
        {"Id": "a", "ReceiptHandle": messages[0]["ReceiptHandle"], "VisibilityTimeout": 60},
        {"Id": "x", "ReceiptHandle": "not-a-handle", "VisibilityTimeout": 60}])
    equal([entry["Id"] for entry in changed["Successful"]], ["a"], "visibility changed")
    equal([entry["Code"] for entry in changed["Failed"]], ["ReceiptHandleIsInvalid"], "visibility failed")
    deleted = c.sqs.delete_message_batch(QueueUrl=url, Entries=[
        {"Id": f"d{i}", "ReceiptHandle": message["ReceiptHandle"]} for i, message in enumerate(messages)])
    equal(sorted(entry["Id"] for entry in deleted["Successful"]), ["d0", "d1"], "deleted")
    equal(c.counts(url), (0, 0), "counts")
    equal(error_code(lambda: c.sqs.send_message_batch(QueueUrl=url, Entries=[
        {"Id": str(i), "MessageBody": "x"} for i in range(11)])),
        "AWS.SimpleQueueService.TooManyEntriesInBatchRequest", "11 entries")


@scenario
def visibility(c):
    url = c.queue("visibility")
    c.sqs.send_message(QueueUrl=url, MessageBody="work")
    first = c.sqs.receive_message(QueueUrl=url, VisibilityTimeout=0)["Messages"][0]
    again = c.sqs.receive_message(QueueUrl=url, AttributeNames=["ApproximateReceiveCount"])["Messages"][0]
    equal(again["Attributes"]["ApproximateReceiveCount"], "2", "visible again at once")
    equal(error_code(lambda: c.sqs.delete_message(QueueUrl=url, ReceiptHandle=first["ReceiptHandle"])),
          "ReceiptHandleIsInvalid", "a stale handle")
    c.sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=again["ReceiptHandle"], VisibilityTimeout=0)
    last = c.sqs.receive_message(QueueUrl=url)["Messages"][0]
    equal(error_code(lambda: c.sqs.change_message_visibility(
        QueueUrl=url, ReceiptHandle=again["ReceiptHandle"], VisibilityTimeout=10)),
        "AWS.SimpleQueueService.MessageNotInflight", "a handle received again since")
    c.sqs.delete_message(QueueUrl=url, ReceiptHandle=last["ReceiptHandle"])


@scenario
def long_poll(c):
    url = c.queue("long-poll")
    threading.Timer(0.5, lambda: c.sqs.send_message(QueueUrl=url, MessageBody="wake up")).start()
    start = time.monotonic()
    messages = c.sqs.receive_message(QueueUrl=url, WaitTimeSeconds=10)["Messages"]
    equal([message["Body"] for message in messages], ["wake up"], "woken by the send")
    check(time.monotonic() - start < 8, "answered when the message came, not at the wait's end")
    equal(c.sqs.receive_message(QueueUrl=url, WaitTimeSeconds=1, VisibilityTimeout=0).get("Messages", []), [],
          "a wait that ends empty")


@scenario
def dead_letters(c):
    dlq = c.queue("dlq")
    arn = c.sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    policy = json.dumps({"deadLetterTargetArn": arn, "maxReceiveCount": "1"})
    url = c.queue("dlq-source", RedrivePolicy=policy)
    c.sqs.send_message(QueueUrl=url, MessageBody="poison")
    c.sqs.receive_message(QueueUrl=url, VisibilityTimeout=0)
    equal(c.sqs.receive_message(QueueUrl=url).get("Messages", []), [], "moved after maxReceiveCount")
    equal([message["Body"] for message in c.sqs.receive_message(QueueUrl=dlq)["Messages"]], ["poison"], "dead letter")
    equal(c.sqs.list_dead_letter_source_queues(QueueUrl=dlq)["queueUrls"], [url], "ListDeadLetterSourceQueues")
    redrive = c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["RedrivePolicy"])["Attributes"]
    equal(json.loads(redrive["RedrivePolicy"]), {"deadLetterTargetArn": arn, "maxReceiveCount": 1}, "RedrivePolicy")


@scenario
def fifo(c):
    url = c.queue("orders.fifo", FifoQueue="true", ContentBasedDeduplication="true")
    first = c.sqs.send_message(QueueUrl=url, MessageBody="a1", MessageGroupId="a")
    again = c.sqs.send_message(QueueUrl=url, MessageBody="a1", MessageGroupId="a")
    equal((again["MessageId"], again["SequenceNumber"]), (first["MessageId"], first["SequenceNumber"]),
          "a duplicate answers the original")
    c.sqs.send_message_batch(QueueUrl=url, Entries=[
        {"Id": "1", "MessageBody": "a2", "MessageGroupId": "a"},
        {"Id": "2", "MessageBody": "b1", "MessageGroupId": "b", "MessageDeduplicationId": "b-1"}])
    received = c.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, AttributeNames=["All"])["Messages"]
    equal([m["Body"] for m in received], ["a1", "b1"], "one message a group, in order")
    equal(received[0]["Attributes"]["MessageGroupId"], "a", "MessageGroupId")
    equal(received[0]["Attributes"]["SequenceNumber"], first["SequenceNumber"], "SequenceNumber")
    check(int(received[0]["Attributes"]["SentTimestamp"]) > 0, "SentTimestamp")
    equal(c.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", []), [],
          "a2 waits while a1 is in flight")
    c.sqs.delete_message(QueueUrl=url, ReceiptHandle=received[0]["ReceiptHandle"])
    equal([m["Body"] for m in c.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]], ["a2"],
          "the group's next")
    equal(error_code(lambda: c.sqs.send_message(QueueUrl=url, MessageBody="x")), "MissingParameter",
          "no MessageGroupId")


FAIR_ATTRIBUTES = ["ApproximateNumberOfNoisyGroups", "ApproximateNumberOfMessagesVisibleInQuietGroups",
                   "ApproximateNumberOfMessagesNotVisibleInQuietGroups",
                   "ApproximateNumberOfMessagesDelayedInQuietGroups", "ApproximateAgeOfOldestMessageInQuietGroups"]


@scenario
def fair_queue(c):
    """A standard queue made fair by MessageGroupId: one tenant's backlog, then three quiet tenants'
    three messages each; the quiet ones are delivered among the first 30 (the noisy tenant's
    released before it became noisy) + 9 + one batch, and GetQueueAttributes answers the five counts."""
    url = c.queue("fair")
    backlog = 200
    for start in range(0, backlog, 10):
        c.sqs.send_message_batch(QueueUrl=url, Entries=[
            {"Id": str(i), "MessageBody": f"noisy-{start + i}", "MessageGroupId": "noisy"} for i in range(10)])
    quiet = set()
    for tenant in range(1, 4):
        for i in range(3):
            quiet.add(c.sqs.send_message(QueueUrl=url, MessageBody=f"quiet-{tenant}-{i}",
                                         MessageGroupId=f"tenant-{tenant}")["MessageId"])
    counts = c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=FAIR_ATTRIBUTES)["Attributes"]
    equal(sorted(counts), sorted(FAIR_ATTRIBUTES), "the five fair-queue attributes")
    equal(int(counts["ApproximateNumberOfNoisyGroups"]), 1, "the backlog's tenant is noisy")
    equal(int(counts["ApproximateNumberOfMessagesVisibleInQuietGroups"]), 9, "the quiet tenants' wait")
    equal(int(counts["ApproximateNumberOfMessagesNotVisibleInQuietGroups"]), 0, "none in flight")
    equal(int(counts["ApproximateNumberOfMessagesDelayedInQuietGroups"]), 0, "none delayed")
    check(int(counts["ApproximateAgeOfOldestMessageInQuietGroups"]) >= 0, "an age in seconds")
    every = c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    check(set(FAIR_ATTRIBUTES) <= set(every), f"All, on a queue with groups: {sorted(every)}")
    place = {}
    for _ in range(2 * (backlog + len(quiet)) // 10):
        messages = c.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", [])
        for message in messages:
            check(message["MessageId"] not in place, "delivered twice")
            place[message["MessageId"]] = len(place) + 1
        if messages:
            c.sqs.delete_message_batch(QueueUrl=url, Entries=[
                {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(messages)])
        if len(place) == backlog + len(quiet):
            break
    equal(len(place), backlog + len(quiet), "every message delivered")
    last = max(place[q] for q in quiet)
    check(last <= 30 + len(quiet) + 10, f"the last quiet message came {last}th of {len(place)}")
    after = c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["ApproximateNumberOfNoisyGroups"])["Attributes"]
    equal(int(after["ApproximateNumberOfNoisyGroups"]), 0, "nobody noisy once all is deleted")


@scenario
def tags(c):
    url = c.sqs.create_queue(QueueName=c.name("tagged"), tags={"team": "payments"})["QueueUrl"]
    c.sqs.tag_queue(QueueUrl=url, Tags={"cost-centre": "42"})
    c.sqs.untag_queue(QueueUrl=url, TagKeys=["team"])
    equal(c.sqs.list_queue_tags(QueueUrl=url).get("Tags"), {"cost-centre": "42"}, "ListQueueTags")


@scenario
def move_task(c):
    dlq = c.queue("move-dlq")
    arn = c.sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    source = c.queue("move-source", RedrivePolicy=json.dumps({"deadLetterTargetArn": arn, "maxReceiveCount": "1"}))
    for i in range(3):
        c.sqs.send_message(QueueUrl=source, MessageBody=f"poison {i}")
    c.sqs.receive_message(QueueUrl=source, MaxNumberOfMessages=10, VisibilityTimeout=0)
    c.sqs.receive_message(QueueUrl=source, MaxNumberOfMessages=10)
    equal(c.counts(dlq), (3, 0), "dead-lettered")
    handle = c.sqs.start_message_move_task(SourceArn=arn)["TaskHandle"]
    check(handle, "TaskHandle")
    deadline = time.monotonic() + 10
    while True:
        task = c.sqs.list_message_move_tasks(SourceArn=arn)["Results"][0]
        if task["Status"] != "RUNNING" or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    equal((task["Status"], task["ApproximateNumberOfMessagesMoved"]), ("COMPLETED", 3), "the task moved them back")
    equal(c.counts(source), (3, 0), "back in their source")


@scenario
def purge_and_delete(c):
    url = c.queue("purge")
    c.sqs.send_message(QueueUrl=url, MessageBody="held")
    c.sqs.send_message(QueueUrl=url, MessageBody="ready")
    c.sqs.receive_message(QueueUrl=url)
    c.sqs.purge_queue(QueueUrl=url)
    equal(c.counts(url), (0, 0), "purged")
    c.sqs.delete_queue(QueueUrl=url)
    equal(error_code(lambda: c.sqs.send_message(QueueUrl=url, MessageBody="x")),
          "AWS.SimpleQueueService.NonExistentQueue", "deleted queue")


@scenario
def cli(c):
    name = c.name("cli")
    url = c.cli("create-queue", "--queue-name", name, "--attributes", "VisibilityTimeout=60")["QueueUrl"]
    equal(c.cli("get-queue-url", "--queue-name", name)["QueueUrl"], url, "get-queue-url")
    check(url in c.cli("list-queues", "--queue-name-prefix", name)["QueueUrls"], "list-queues")
    sent = c.cli("send-message", "--queue-url", url, "--message-body", "from the CLI",
                 "--message-attributes", json.dumps({"kind": {"DataType": "String", "StringValue": "cli"}}))
    equal(sent["MD5OfMessageBody"], hashlib.md5(b"from the CLI").hexdigest(), "MD5OfMessageBody")
    c.cli("send-message-batch", "--queue-url", url, "--entries",
          json.dumps([{"Id": "1", "MessageBody": "one"}, {"Id": "2", "MessageBody": "two"}]))
    received = c.cli("receive-message", "--queue-url", url, "--max-number-of-messages", "10",
                     "--attribute-names", "All", "--message-attribute-names", "All")["Messages"]
    equal([message["Body"] for message in received], ["from the CLI", "one", "two"], "receive-message")
    equal(received[0]["MessageAttributes"]["kind"]["StringValue"], "cli", "message attribute")
    c.cli("change-message-visibility", "--queue-url", url, "--receipt-handle", received[1]["ReceiptHandle"],
          "--visibility-timeout", "0")
    again = c.cli("receive-message", "--queue-url", url, "--attribute-names", "ApproximateReceiveCount")["Messages"]
    equal([(m["Body"], m["Attributes"]["ApproximateReceiveCount"]) for m in again], [("one", "2")], "visible again")
    c.cli("delete-message", "--queue-url", url, "--receipt-handle", received[0]["ReceiptHandle"])
    attributes = c.cli("get-queue-attributes", "--queue-url", url, "--attribute-names", "All")["Attributes"]
    equal((attributes["ApproximateNumberOfMessages"], attributes["ApproximateNumberOfMessagesNotVisible"]),
          ("0", "2"), "counts")
    c.cli("purge-queue", "--queue-url", url)
    c.cli("delete-queue", "--queue-url", url)
    check("NonExistentQueue" in c.cli("get-queue-url", "--queue-name", name, expect_failure=True),
          "get-queue-url of a deleted queue names NonExistentQueue")


@signed
def signatures(c):
    key_id, secret = c.key
    equal(error_code(lambda: c.client(key_id, secret + "x").list_queues()), "SignatureDoesNotMatch", "wrong secret")
    equal(error_code(lambda: c.client("AKIDUNKNOWN", secret).list_queues()), "InvalidClientTokenId", "unknown key")
    unsigned = boto3.client("sqs", endpoint_url=c.endpoint, region_name="us-east-1",
                            config=botocore.config.Config(signature_version=botocore.UNSIGNED))
    equal(error_code(unsigned.list_queues), "MissingAuthenticationToken", "no signature")
    check("SignatureDoesNotMatch" in c.cli("list-queues", key=(key_id, "wrong"), expect_failure=True),
          "the CLI with a wrong secret names SignatureDoesNotMatch")
    check("InvalidClientTokenId" in c.cli("list-queues", key=("AKIDUNKNOWN", secret), expect_failure=True),
          "the CLI with an unknown key names InvalidClientTokenId")
    if c.sqs.meta.service_model.protocol == "query":
        # a presigned URL: the query protocol's GET, its parameters and signature in the URL
        name = c.name("presigned")
        url = c.queue("presigned")
        presigned = c.sqs.generate_presigned_url("get_queue_url", Params={"QueueName": name}, ExpiresIn=60,
                                                HttpMethod="GET")
        with urllib.request.urlopen(presigned, timeout=10) as answer:
            check(url in answer.read().decode(), "a presigned GetQueueUrl answers the queue's URL")
        try:
            urllib.request.urlopen(presigned.replace("QueueName=", "QueueName=x"), timeout=10)
            raise AssertionError("a changed presigned URL should be refused")
        except urllib.error.HTTPError as error:
            equal(error.code, 403, "a changed presigned URL")
            check("SignatureDoesNotMatch" in error.read().decode(), "a changed presigned URL: SignatureDoesNotMatch")


@signed
def policies(c):
    other_id, other_secret, other_account = c.other
    other = c.client(other_id, other_secret)
    url = c.queue("shared")
    equal(error_code(lambda: other.send_message(QueueUrl=url, MessageBody="b")), "AccessDenied", "before")
    c.sqs.add_permission(QueueUrl=url, Label="b-sends", AWSAccountIds=[other_account], Actions=["SendMessage"])
    other.send_message(QueueUrl=url, MessageBody="from account B")
    equal(error_code(lambda: other.receive_message(QueueUrl=url)), "AccessDenied", "receive, not granted")
    equal(error_code(lambda: other.purge_queue(QueueUrl=url)), "AccessDenied", "purge, not granted")
    c.sqs.remove_permission(QueueUrl=url, Label="b-sends")
    equal(error_code(lambda: other.send_message(QueueUrl=url, MessageBody="b")), "AccessDenied", "removed")
    equal([m["Body"] for m in c.sqs.receive_message(QueueUrl=url).get("Messages", [])], ["from account B"],
          "what B sent")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("endpoint")
    parser.add_argument("--protocol", choices=("json", "query"), required=True)
    parser.add_argument("--key", help="ID:SECRET, the owner's key of a service that checks signatures")
    parser.add_argument("--other-key", help="ID:SECRET:ACCOUNT, a key of another account")
    args = parser.parse_args()
    key = tuple(args.key.split(":", 1)) if args.key else ("any", "any")
    other = tuple(args.other_key.split(":", 2)) if args.other_key else None
    context = Context(args.endpoint.rstrip("/"), f"py{args.protocol}-{uuid.uuid4().hex[:8]}", key, other)
    protocol = context.sqs.meta.service_model.protocol
    print(f"== boto3 {boto3.__version__}, botocore {botocore.__version__}: SQS over {protocol}")
    if protocol != args.protocol:
        print(f"expected the {args.protocol} protocol: install the matching botocore", file=sys.stderr)
        sys.exit(2)
    passed = failed = 0
    for function in SCENARIOS + (SIGNED_SCENARIOS if args.key else []):
        try:
            function(context)
            passed += 1
            print(f"ok   {function.__name__}")
        except Exception:  # noqa: BLE001 - a scenario fails by any exception, reported in full
            failed += 1
            print(f"FAIL {function.__name__}\n{traceback.format_exc()}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
