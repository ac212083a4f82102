#!/usr/bin/env python3
"""Latency of `balcao serve`'s JSON API against its embedded sandbox (docs/performance.md,
"terminal"). Starts serve on a free port with a temp data dir, leaves 40 Pix QRs open (their
timers keep ticking), polls them, then runs 20 approved card sales; prints p50/p95.
usage: serve_latency.py <path of the balcao executable>"""
import json, os, re, shutil, subprocess, sys, tempfile, time, urllib.request


def main(cli):
    data = tempfile.mkdtemp(prefix="balcao-latency-")
    serve = subprocess.Popen([cli, "--log-file", os.path.join(data, "balcao.log"), "serve", "--port", "0",
                              "--data-dir", os.path.join(data, "data")], stdout=subprocess.PIPE, text=True)
    try:
        url = None
        for line in serve.stdout:
            m = re.search(r"listening on (http://127\.0\.0\.1:\d+)/", line)
            if m:
                url = m.group(1) + "/api"
                break

        def req(method, path, body=None):
            r = urllib.request.Request(url + path, method=method, headers={"Content-Type": "application/json"},
                                       data=json.dumps(body).encode() if body is not None else None)
            t = time.perf_counter()
            answer = json.loads(urllib.request.urlopen(r).read())
            return time.perf_counter() - t, answer

        created, pix, polls, cards = [], [], [], []
        for i in range(40):
            t, sale = req("POST", "/sales", {"amount": 1000 + i}); created.append(t)
            t, _ = req("POST", "/sales/%s/method" % sale["id"], {"method": "pix"}); pix.append(t)
            for _ in range(5):
                t, _ = req("GET", "/sales/" + sale["id"]); polls.append(t)
        for _ in range(20):
            _, sale = req("POST", "/sales", {"amount": 2000})
            req("POST", "/sales/%s/method" % sale["id"], {"method": "card"})
            t, view = req("POST", "/sales/%s/card" % sale["id"], {
                "number": "4242424242424242", "expiry": "12/34", "security_code": "123", "holder_name": "A B",
                "holder_email": "a.b@example.com", "holder_phone": "11987654321",
                "billing": {"street_line1": "Rua Augusta, 1500", "city": "Sao Paulo", "state_code": "SP",
                            "zip_code": "01304-001", "country_code": "BRA"},
                "browser": {"language": "pt-BR", "timezone_offset": 180}})
            assert view["status"] == "paid", view
            cards.append(t)

        def pct(xs, q):
            xs = sorted(xs)
            return xs[int(q * (len(xs) - 1))] * 1000

        for name, xs in [("POST /api/sales", created), ("choose Pix (brcode created at the bank)", pix),
                         ("GET /api/sales/{id} (the page's poll)", polls),
                         ("card submitted (session + purchase at the bank)", cards)]:
            print("| %s | %.1f ms | %.1f ms | %d |" % (name, pct(xs, .5), pct(xs, .95), len(xs)))
    finally:
        serve.terminate()
        serve.wait()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1])
