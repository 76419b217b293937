"""Pushes numbered messages through service instances until they stop answering, and records
every push that was acknowledged (201) with the time of its acknowledgement.

One thread per (instance, writer): each keeps one HTTP/1.1 connection and pushes
"probe-<instance>-<writer>-<n>" to queue QUEUE until a request fails (the instance was killed),
then stops. Prints one JSON line: {"acked": [[id, epoch_seconds, body], ...], "refused": {status: n}}, the
refused being the answers other than 201 (a 503 while Redis refuses writes).

  python3 durability_probe.py --ports 8080,8081 --writers 4 --queue durable --seconds 30
"""
import argparse
import http.client
import json
import threading
import time


def writer(port, name, queue, deadline, acked, refused, lock):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    n = 0
    while time.time() < deadline:
        n += 1
        body = f"probe-{name}-{n}"
        try:
            connection.request("POST", f"/queues/{queue}/messages", body=body.encode(),
                               headers={"Content-Type": "text/plain"})
            response = connection.getresponse()
            answer = response.read()
        except (OSError, http.client.HTTPException):
            return
        if response.status != 201:
            with lock:
                refused[response.status] = refused.get(response.status, 0) + 1
            continue
        at = time.time()
        with lock:
            acked.append([json.loads(answer)["id"], at, body])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ports", required=True)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--queue", default="durable")
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    acked, refused, lock = [], {}, threading.Lock()
    deadline = time.time() + args.seconds
    threads = [threading.Thread(target=writer, args=(int(port), f"{i}-{w}", args.queue, deadline, acked, refused,
                                                     lock))
               for i, port in enumerate(args.ports.split(",")) for w in range(args.writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(json.dumps({"acked": acked, "refused": refused}))


if __name__ == "__main__":
    main()
