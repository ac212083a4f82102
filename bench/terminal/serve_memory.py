#!/usr/bin/env python3
"""Serve's memory over a busy day (docs/performance.md, "terminal: memory over a day").

Starts `balcao serve` on a free port over a temp data dir with its embedded sandbox, logs a
cashier in, and rings up paid Pix sales as the touchscreen does (POST /api/sales, choose Pix,
the sandbox's payer pays, the sale is polled until paid), WORKERS at a time. Prints serve's
resident memory (VmRSS of /proc/PID/status, the embedded sandbox included: it runs in the same
process) at start, after the warm-up, and at each checkpoint.
usage: serve_memory.py BALCAO [CHECKPOINTS=2000,10000] [WORKERS=4]
SERVE_WRAPPER (e.g. "heaptrack -o /tmp/serve") runs serve under a memory profiler."""
import concurrent.futures
import http.cookiejar
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

PIN = "736451"


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Counter:
    """One logged-in touchscreen: the session cookie, JSON in and out."""

    def __init__(self, url):
        self.url = url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(self, method, path, body=None):
        request = urllib.request.Request(self.url + path, method=method, headers={"Content-Type": "application/json"},
                                         data=json.dumps(body).encode() if body is not None else None)
        with self.opener.open(request, timeout=60) as answer:
            return json.loads(answer.read())

    def paid_pix_sale(self, amount):
        sale = self.call("POST", "/api/sales", {"amount": amount})
        self.call("POST", "/api/sales/%s/method" % sale["id"], {"method": "pix"})
        self.call("POST", "/api/sales/%s/simulate" % sale["id"], {})
        deadline = time.time() + 60
        while time.time() < deadline:
            view = self.call("GET", "/api/sales/" + sale["id"])
            if view["status"] == "paid":
                return
            time.sleep(0.02)
        raise RuntimeError("sale %s not paid: %s" % (sale["id"], view["status"]))


def main(cli, checkpoints, workers):
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stopped: serve and its temp dir go too
    data = tempfile.mkdtemp(prefix="balcao-memory-")
    store = os.path.join(data, "data")
    os.makedirs(store)
    subprocess.run([cli, "--log-file", os.path.join(data, "balcao.log"), "operator", "add", "ana", "--role",
                    "supervisor", "--db", os.path.join(store, "balcao.db")], input=PIN + "\n", text=True,
                   check=True, stdout=subprocess.DEVNULL)
    # SERVE_WRAPPER="heaptrack -o FILE" runs serve under a memory profiler (its VmRSS then is not serve's).
    serve = subprocess.Popen(os.environ.get("SERVE_WRAPPER", "").split() + [cli, "--log-file", os.path.join(data, "balcao.log"), "--log-level", "warn", "serve",
                              "--port", "0", "--data-dir", store], stdout=subprocess.PIPE, text=True)
    try:
        url = None
        for line in serve.stdout:
            found = re.search(r"listening on (http://127\.0\.0\.1:\d+)/", line)
            if found:
                url = found.group(1)
                break
        threading.Thread(target=serve.stdout.read, daemon=True).start()  # the rest of its output
        counters = []
        for _ in range(workers):
            counter = Counter(url)
            counter.call("POST", "/api/login", {"operator": "ana", "pin": PIN})
            counters.append(counter)
        print("| sales | VmRSS | per sale since warm-up | wall |")
        print("|---:|---:|---:|---:|")
        print("| 0 | %.1f MB | | |" % (rss_kb(serve.pid) / 1024))
        done = 0
        started = time.time()
        warm_rss = None

        def ring(until):
            nonlocal done
            with concurrent.futures.ThreadPoolExecutor(workers) as pool:
                jobs = [pool.submit(lambda i: counters[i % workers].paid_pix_sale(1000 + i % 9000), i)
                        for i in range(done, until)]
                for job in jobs:
                    job.result()
            done = until

        ring(100)  # the warm-up: caches, the sandbox's first pages, the allocator's arenas
        warm_rss = rss_kb(serve.pid)
        print("| %d (warm-up) | %.1f MB | | %.0f s |" % (done, warm_rss / 1024, time.time() - started))
        for checkpoint in checkpoints:
            ring(checkpoint)
            now = rss_kb(serve.pid)
            print("| %d | %.1f MB | %.1f KB | %.0f s |" % (done, now / 1024, (now - warm_rss) / (done - 100),
                                                            time.time() - started), flush=True)
    finally:
        serve.terminate()
        serve.wait()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], [int(n) for n in (sys.argv[2] if len(sys.argv) > 2 else "2000,10000").split(",")],
         int(sys.argv[3]) if len(sys.argv) > 3 else 4)
