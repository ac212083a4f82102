#!/usr/bin/env python3
"""Latency of `balcao serve`'s JSON API against its embedded sandbox (docs/performance.md,
"terminal"). Starts serve on a free port over a temp data dir (a cashier added with `balcao
operator add`, logged in as the touchscreen is), leaves 40 Pix QRs open (their timers keep
ticking), polls them, then takes 20 card sales the way the product does (docs/adr/0009): the
touchscreen chooses card and fetches the phone's QR, the customer's phone reads its page's facts
from serve and posts the purchase straight to the bank (the sandbox) itself, and the
touchscreen's long poll sees the sale paid. Prints p50/p95 of each step as a markdown table.
usage: serve_latency.py <path of the balcao executable>"""
import http.cookiejar
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

PIN = "4821"
PHONE_AGENT = "Mozilla/5.0 (Linux; Android 13; moto g(30)) Chrome/119.0.0.0 Mobile Safari/537.36"


class Client:
    """JSON over HTTP with its own cookies: the touchscreen (logged in) or the customer's phone."""

    def __init__(self, agent=None):
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.agent = agent

    def call(self, method, url, body=None):
        headers = {"Content-Type": "application/json"}
        if self.agent:
            headers["User-Agent"] = self.agent
        request = urllib.request.Request(url, method=method, headers=headers,
                                         data=json.dumps(body).encode() if body is not None else None)
        started = time.perf_counter()
        with self.opener.open(request, timeout=60) as answer:
            return time.perf_counter() - started, json.loads(answer.read())


def until(till, url, sale_id, statuses, view):
    """The touchscreen's long poll (?wait=<version>) until the sale is in one of `statuses`."""
    while view["status"] not in statuses:
        _, view = till.call("GET", "%s/api/sales/%s?wait=%d" % (url, sale_id, view["version"]))
    return view


# The sandbox's approving test card (no real card), kept with the tests' data.
TEST_CARD_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data",
                              "sandbox_test_card.json")


def phone_purchase(amount):
    """What the phone's page posts to the bank (terminal/web/pay/pay.js purchase())."""
    with open(TEST_CARD_FILE) as f:
        card = {k: v for k, v in json.load(f).items() if k != "source"}
    return {"amount": amount, "installmentCount": 1, "fundingType": "credit", **card,
            "holderEmail": "maria@example.com", "holderPhone": "11987654321",
            "billingStreetLine1": "Rua Augusta, 1500", "billingStreetLine2": "", "billingCity": "Sao Paulo",
            "billingStateCode": "SP", "billingZipCode": "01304-001", "billingCountryCode": "BRA",
            "metadata": {"userAgent": PHONE_AGENT, "userIp": "127.0.0.1", "language": "pt-BR",
                         "timezoneOffset": 180, "screen": "360x740"}}


def card_sale(url, till, amount, times):
    _, sale = till.call("POST", url + "/api/sales", {"amount": amount})
    started = time.perf_counter()
    _, view = till.call("POST", "%s/api/sales/%s/method" % (url, sale["id"]), {"method": "card"})
    view = until(till, url, sale["id"], {"enter-card"}, view)
    t, link = till.call("GET", "%s/api/sales/%s/phone-link" % (url, sale["id"]))
    times["qr"].append(time.perf_counter() - started)
    times["link"].append(t)
    phone = Client(PHONE_AGENT)
    t, facts = phone.call("GET", link["url"] + "/session")
    times["facts"].append(t)
    # The touchscreen's long poll is already waiting when the phone pays, as on the counter.
    seen = {}

    def watch():
        seen["view"] = until(till, url, sale["id"], {"paid", "declined", "choose-method"}, view)
        seen["at"] = time.perf_counter()

    watcher = threading.Thread(target=watch)
    watcher.start()
    t, bought = phone.call("POST", facts["purchase_url"], phone_purchase(amount))
    answered = time.perf_counter()
    times["purchase"].append(t)
    # As the phone's page does once the bank answered: the box asks the bank now.
    phone.call("POST", link["url"] + "/answered", {})
    watcher.join(60)
    assert seen.get("view", {}).get("status") == "paid", (bought, seen)
    times["paid"].append(seen["at"] - answered)


def main(cli):
    data = tempfile.mkdtemp(prefix="balcao-latency-")
    store = os.path.join(data, "data")
    os.makedirs(store)
    log = os.path.join(data, "balcao.log")
    subprocess.run([cli, "--log-file", log, "operator", "add", "ana", "--role", "cashier", "--db",
                    os.path.join(store, "balcao.db")], input=PIN + "\n", text=True, check=True,
                   stdout=subprocess.DEVNULL)
    serve = subprocess.Popen([cli, "--log-file", log, "--log-level", "warn", "serve", "--port", "0",
                              "--data-dir", store], stdout=subprocess.PIPE, text=True)
    try:
        url = None
        for line in serve.stdout:
            found = re.search(r"listening on (http://127\.0\.0\.1:\d+)/", line)
            if found:
                url = found.group(1)
                break
        threading.Thread(target=serve.stdout.read, daemon=True).start()  # the rest of its output
        till = Client()
        till.call("POST", url + "/api/login", {"operator": "ana", "pin": PIN})
        times = {k: [] for k in ("created", "pix", "polls", "qr", "link", "facts", "purchase", "paid")}
        for i in range(40):
            t, sale = till.call("POST", url + "/api/sales", {"amount": 1000 + i})
            times["created"].append(t)
            t, _ = till.call("POST", "%s/api/sales/%s/method" % (url, sale["id"]), {"method": "pix"})
            times["pix"].append(t)
            for _ in range(5):
                t, _ = till.call("GET", "%s/api/sales/%s" % (url, sale["id"]))
                times["polls"].append(t)
        for i in range(20):
            card_sale(url, till, 2000 + i, times)

        def pct(xs, q):
            xs = sorted(xs)
            return xs[int(q * (len(xs) - 1))] * 1000

        print("| request | p50 | p95 | n |")
        print("|---|---|---|---|")
        for key, name in [("created", "POST /api/sales"), ("pix", "choose Pix (brcode created at the bank)"),
                          ("polls", "GET /api/sales/{id} (the page's poll)"),
                          ("qr", "choose card until the phone's QR is ready (the bank's card session)"),
                          ("link", "GET /api/sales/{id}/phone-link (the QR's SVG)"),
                          ("facts", "GET /pay/{uuid}/session (the phone's page reads its facts)"),
                          ("purchase", "the phone's purchase at the bank (the sandbox, not serve)"),
                          ("paid", "the bank's approval until the touchscreen's long poll says paid")]:
            xs = times[key]
            print("| %s | %.1f ms | %.1f ms | %d |" % (name, pct(xs, .5), pct(xs, .95), len(xs)))
    finally:
        serve.terminate()
        serve.wait()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1])
