#!/usr/bin/env python3
"""Redis's time in scripts for a fair queue's push and completion, the scripts alone (no JVM).

Each variant runs N single-message operations on a queue of its own, on a redis-server of this
script's own, with every message of a quiet group (one of 8; a percentage of 100 keeps every group
quiet); Redis's time is `INFO commandstats`' usec of EVALSHA over the N calls, reset before each.
Variants, alternated in order each round (the first one reversed every other round):
  push-two       push.lua (held), then fair-append.lua: the fair push as two calls (until 3 December)
  push-composed  fair-push.lua, composed as LuaScript.composed composes it
  complete-two   complete.lua, then fair-remove.lua: the fair completion as two calls
  complete-composed  fair-complete.lua, composed
A completion variant pushes and leases its N messages first (not timed).

  flock /tmp/qs-bench.lock scripts/bench/redis-fair-scripts.py [N] [ROUNDS] [SCRIPTS] [VARIANTS]

SCRIPTS is a directory of the scripts (default: this checkout's); VARIANTS a comma-separated list.
See docs/redis.md ("Every lever measured").
"""
import os, re, socket, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
N = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 6
SCRIPTS = sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, 'src/main/resources/io/github/qsbench/redis')
VARIANTS = (sys.argv[4] if len(sys.argv) > 4 else 'push-two,push-composed,complete-two,complete-composed').split(',')
HOLD = 30000            # FairGroups.PUSH_HOLD_MILLIS
LONGER = 365 * 86400000  # FairGroups.HOLD_MILLIS


def source(name):
    with open(os.path.join(SCRIPTS, name + '.lua')) as f:
        return f.read()


def composed(name, parts):
    """As LuaScript.composed: each part a local function of KEYS and ARGV, then the script."""
    return ''.join('local function %s(KEYS, ARGV)\n%s\nend\n' % (p.replace('-', '_'), source(p)) for p in parts) \
        + source(name)


class Redis:
    def __init__(self, port):
        self.sock = socket.create_connection(('127.0.0.1', port))
        self.file = self.sock.makefile('rb')

    def __call__(self, *args):
        out = [b'*%d\r\n' % len(args)]
        for arg in args:
            arg = arg if isinstance(arg, bytes) else str(arg).encode()
            out.append(b'$%d\r\n%s\r\n' % (len(arg), arg))
        self.sock.sendall(b''.join(out))
        return self.reply()

    def reply(self):
        line = self.file.readline()
        kind, rest = line[:1], line[1:-2]
        if kind == b'+':
            return rest.decode()
        if kind == b'-':
            raise RuntimeError(rest.decode())
        if kind == b':':
            return int(rest)
        if kind == b'$':
            n = int(rest)
            return None if n < 0 else self.file.read(n + 2)[:-2]
        n = int(rest)
        return None if n < 0 else [self.reply() for _ in range(n)]


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def main():
    port = free_port()
    workdir = tempfile.mkdtemp(prefix='fair-scripts.')
    server = subprocess.Popen(['redis-server', '--port', str(port), '--bind', '127.0.0.1', '--save', '',
                               '--appendonly', 'no', '--dir', workdir], stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                redis = Redis(port)
                redis('PING')
                break
            except OSError:
                time.sleep(0.05)
        run(redis)
    finally:
        server.terminate()
        server.wait()


def run(redis):
    sha = {name: redis('SCRIPT', 'LOAD', text) for name, text in {
        'push': source('push'), 'append': source('fair-append'), 'complete': source('complete'),
        'remove': source('fair-remove'),
        'push-composed': composed('fair-push', ['push', 'fair-append']),
        'complete-composed': composed('fair-complete', ['complete', 'fair-remove'])}.items()}

    def keys(q):
        core = ['%s:%s' % (q, k) for k in ('ready', 'leased', 'delayed', 'bodies', 'deliveries')]
        fair = ['%s:fair:%s' % (q, k) for k in ('released', 'heldOf', 'count', 'total', 'round', 'holds')]
        return core + ['ids', 'queues'], fair, fair + [core[0], core[2]], core

    def push(variant, q, i):
        push_keys, _, holding, _ = keys(q)
        push_args = [int(time.time() * 1000), HOLD, 0, 1000000, q, 'channel', 'message %d of a fair queue' % i]
        append_args = [q + ':fair:list:', 30, 100, q, 'channel', LONGER]
        group = 'g%d' % (i % 8)
        if variant == 'push-two':
            first = redis('EVALSHA', sha['push'], len(push_keys), *push_keys, *push_args)[0]
            out = redis('EVALSHA', sha['append'], len(holding), *holding, *append_args, first, group)
        else:
            out = redis('EVALSHA', sha['push-composed'], len(push_keys) + len(holding), *push_keys, *holding,
                        len(push_keys), 1, *push_args, *append_args, group)[2]
        assert out == [1], out

    def lease(q):
        ready = '%s:ready' % q
        ids = redis('LRANGE', ready, 0, -1)
        redis('DEL', ready)
        for i in ids:
            redis('ZADD', '%s:leased' % q, 2 ** 40, i)
            redis('HSET', '%s:deliveries' % q, i, 1)
        return ids

    def complete(variant, q, i):
        _, fair, _, core = keys(q)
        args = ['complete', int(time.time() * 1000), 0, i, 0]
        if variant == 'complete-two':
            out = redis('EVALSHA', sha['complete'], len(core), *core, *args)
            if out[0] == 0:
                redis('EVALSHA', sha['remove'], len(fair), *fair, i, q + ':fair:list:')
        else:
            out = redis('EVALSHA', sha['complete-composed'], len(core) + len(fair), *core, *fair, len(core), 1,
                        *args, q + ':fair:list:')
        assert out == [0], out

    per_call = {v: [] for v in VARIANTS}
    print('start %s, load average %s; %d operations a cell, %d rounds, scripts %s'
          % (time.strftime('%H:%M:%S', time.gmtime()), open('/proc/loadavg').read().split()[:3], N, ROUNDS, SCRIPTS))
    for rnd in range(ROUNDS):
        for variant in (VARIANTS if rnd % 2 == 0 else VARIANTS[::-1]):
            q = 'q-%s-%d' % (variant, rnd)
            operation = push if variant.startswith('push') else complete
            if operation is complete:
                for i in range(N):
                    push('push-composed', q, i)
                ids = lease(q)
                redis('CONFIG', 'RESETSTAT')
                for i in ids:
                    complete(variant, q, i)
                assert redis('HLEN', q + ':fair:released') == 0
            else:
                redis('CONFIG', 'RESETSTAT')
                for i in range(N):
                    push(variant, q, i)
            stats = redis('INFO', 'commandstats').decode()
            calls, usec = map(int, re.search(r'cmdstat_evalsha:calls=(\d+),usec=(\d+)', stats).groups())
            per_call[variant].append(usec / N)
            print('round %d  %-18s scripts a message %.2f  Redis µs in scripts a message %6.2f'
                  % (rnd, variant, calls / N, usec / N), flush=True)
            redis('FLUSHALL')
    print()
    for variant in VARIANTS:
        line = '%-18s median %6.2f µs' % (variant, statistics.median(per_call[variant]))
        if variant.endswith('composed') and variant.replace('composed', 'two') in per_call:
            ratios = [a / b for a, b in zip(per_call[variant], per_call[variant.replace('composed', 'two')])]
            line += '   / two calls: %.3f (rounds %s)' % (statistics.geometric_mean(ratios),
                                                        ' '.join('%.2f' % r for r in ratios))
        print(line)


if __name__ == '__main__':
    main()
