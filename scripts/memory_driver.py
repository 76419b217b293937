#!/usr/bin/env python3
"""HTTP load for the memory scripts: plain keep-alive connections, no dependencies.

  memory_driver.py cycles URL --count N --clients C --body-bytes B --abandon-share S --lease-seconds L
      N cycles of push, poll, complete, each on a new queue name, spread over C clients.
      A client stops after 5 pushes in a row fail (5xx, or no answer within 10 s).
      A share S of first deliveries is abandoned; once its lease (L s) has lapsed the
      same client polls that queue again and completes the redelivery. Prints one JSON
      line: statuses counted, cycles done, abandoned and redelivered.
  memory_driver.py fill URL --count N --clients C --body-bytes B --queue Q
      Pushes N messages of B bytes into queue Q. Prints the statuses counted.
  memory_driver.py batches URL --count N --clients C --body-bytes B --queue Q
      Sends N batch requests of ten messages of B bytes to queue Q, alternately a REST batch
      and an SQS SendMessageBatch (AWS JSON 1.0). Prints the statuses counted.
"""
import argparse
import http.client
import json
import sys
import threading
import time
import urllib.parse
from collections import Counter, deque


# Consecutive pushes answered 5xx or not at all after which a client stops: the service is gone.
GIVE_UP_AFTER = 5


class Client:
    def __init__(self, url):
        parsed = urllib.parse.urlparse(url)
        self.host, self.port = parsed.hostname, parsed.port
        self.connection = None
        self.statuses = Counter()

    def request(self, method, path, body=None, headers=None):
        for attempt in range(3):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
                self.connection.request(method, path, body=body, headers=headers or {})
                response = self.connection.getresponse()
                data = response.read()
                self.statuses[response.status] += 1
                if response.getheader("Connection", "").lower() == "close":
                    self.connection.close()
                    self.connection = None
                return response.status, data
            except (ConnectionError, http.client.HTTPException, OSError) as failure:
                self.statuses["timeout" if isinstance(failure, TimeoutError) else "connection-error"] += 1
                if self.connection is not None:
                    self.connection.close()
                self.connection = None
                if isinstance(failure, TimeoutError):
                    break  # an overloaded service: retrying only adds load
                time.sleep(0.2)
        return None, None


def cycles(args, client_index, result):
    client = Client(args.url)
    body = b"x" * args.body_bytes
    abandoned = deque()  # (queue, lapse time)
    done = redelivered = abandoned_count = 0
    every = round(1 / args.abandon_share) if args.abandon_share > 0 else 0

    def complete_lapsed(block):
        nonlocal redelivered
        while abandoned and (block or abandoned[0][1] <= time.monotonic()):
            queue, lapse = abandoned.popleft()
            time.sleep(max(0.0, lapse - time.monotonic()))
            status, data = client.request("GET", f"/queues/{queue}/messages")
            if status == 200:
                message = json.loads(data)
                client.request("DELETE", f"/queues/{queue}/messages/{message['id']}",
                               headers={"If-Match": f"\"{message['lease']}\""} if "lease" in message else {})
                redelivered += 1

    failures = 0
    for i in range(client_index, args.count, args.clients):
        if failures >= GIVE_UP_AFTER:
            break
        queue = f"mem-{args.tag}-{i}"
        status, data = client.request("POST", f"/queues/{queue}/messages", body=body,
                                      headers={"Content-Type": "text/plain"})
        failures = failures + 1 if status is None or status >= 500 else 0
        if status == 201:
            status, data = client.request("GET", f"/queues/{queue}/messages")
            if status == 200:
                message = json.loads(data)
                if every and i % every == 0:
                    abandoned.append((queue, time.monotonic() + args.lease_seconds + 0.1))
                    abandoned_count += 1
                else:
                    client.request("DELETE", f"/queues/{queue}/messages/{message['id']}")
        done += 1
        complete_lapsed(block=False)
    complete_lapsed(block=True)
    result[client_index] = (client.statuses, done, abandoned_count, redelivered)


def fill(args, client_index, result):
    client = Client(args.url)
    body = b"x" * args.body_bytes
    for _ in range(client_index, args.count, args.clients):
        client.request("POST", f"/queues/{args.queue}/messages", body=body, headers={"Content-Type": "text/plain"})
    result[client_index] = (client.statuses, 0, 0, 0)


def batches(args, client_index, result):
    client = Client(args.url)
    body = "x" * args.body_bytes
    rest = json.dumps({"messages": [body] * 10}).encode()
    client.request("POST", "/", body=json.dumps({"QueueName": args.queue}).encode(),
                   headers={"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "AmazonSQS.CreateQueue"})
    url = f"{args.url}/000000000000/{args.queue}"
    sqs = json.dumps({"QueueUrl": url, "Entries": [{"Id": f"e{i}", "MessageBody": body} for i in range(10)]}).encode()
    for i in range(client_index, args.count, args.clients):
        if i % 2 == 0:
            client.request("POST", f"/queues/{args.queue}/messages/batch", body=rest,
                           headers={"Content-Type": "application/json"})
        else:
            client.request("POST", "/", body=sqs, headers={"Content-Type": "application/x-amz-json-1.0",
                                                            "X-Amz-Target": "AmazonSQS.SendMessageBatch"})
    result[client_index] = (client.statuses, 0, 0, 0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["cycles", "fill", "batches"])
    parser.add_argument("url")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--clients", type=int, default=1)
    parser.add_argument("--body-bytes", type=int, default=100)
    parser.add_argument("--abandon-share", type=float, default=0.0)
    parser.add_argument("--lease-seconds", type=float, default=1.0)
    parser.add_argument("--queue", default="fill")
    parser.add_argument("--tag", default=str(int(time.time())))
    args = parser.parse_args()
    work = {"cycles": cycles, "fill": fill, "batches": batches}[args.mode]
    result = {}
    started = time.monotonic()
    threads = [threading.Thread(target=work, args=(args, c, result)) for c in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = Counter()
    for counted, _, _, _ in result.values():
        statuses.update(counted)
    print(json.dumps({
        "mode": args.mode, "clients": args.clients, "count": args.count, "body_bytes": args.body_bytes,
        "abandon_share": args.abandon_share, "seconds": round(time.monotonic() - started, 1),
        "cycles": sum(r[1] for r in result.values()), "abandoned": sum(r[2] for r in result.values()),
        "redelivered_and_completed": sum(r[3] for r in result.values()),
        "statuses": {str(k): v for k, v in sorted(statuses.items(), key=lambda kv: str(kv[0]))},
        "server_errors": sum(v for k, v in statuses.items() if isinstance(k, int) and k >= 500),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
