#!/usr/bin/env python3
"""A fault-injecting HTTP proxy for the remote-IO tests (loopback only).

Usage: fault_proxy.py PORTFILE UPSTREAM_PORT
Listens on a free 127.0.0.1 port (written to PORTFILE) and forwards GET to
nginx on UPSTREAM_PORT. The first path element picks the fault, the rest is
the upstream path:
  /ok/F            forwarded as is
  /503x2/F         the first 2 requests of each range get 503, then forwarded
  /429x1/F         the first request of each range gets 429
  /drop1/F         the first request of each range: connection closed, no reply
  /trunc1/F        the first response of each range is cut in half
  /delay/F         every response waits 0.2 s
  /norange/F       Range is ignored: 200 with the whole body
  /changed/F       from the 2nd request on, another ETag (the object changed)
  /always503/F     always 503
  /longer/F        206 with one byte more than asked for, every time
Counts of requests per fault are written to PORTFILE.log, one line each.
"""
import http.client
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UP = int(sys.argv[2])
seen = {}
lock = threading.Lock()
logf = open(sys.argv[1] + ".log", "a", buffering=1)


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_GET(self):
        parts = self.path.split("/", 2)
        fault, rest = (parts[1], "/" + parts[2]) if len(parts) == 3 else ("ok", self.path)
        rng = self.headers.get("Range", "")
        key = (fault, rest, rng)
        with lock:
            n = seen.get(key, 0)
            seen[key] = n + 1
            total = sum(v for (f, _, _), v in seen.items() if f == fault)
        logf.write("%s %s %s %d\n" % (fault, rest, rng, total))
        if fault.startswith("503x") and n < int(fault[4:]) or fault == "always503":
            return self.reply(503, b"<Error><Code>SlowDown</Code></Error>")
        if fault.startswith("429x") and n < int(fault[4:]):
            return self.reply(429, b"")
        if fault == "drop1" and n == 0:
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if fault == "delay":
            threading.Event().wait(0.2)
        hdrs = {}
        if rng and fault != "norange":
            hdrs["Range"] = rng
        if fault == "longer" and rng.startswith("bytes=") and "-" in rng[6:] and not rng[6:].startswith("-"):
            a, b = rng[6:].split("-")
            hdrs["Range"] = "bytes=%s-%d" % (a, int(b) + 1)
        c = http.client.HTTPConnection("127.0.0.1", UP, timeout=10)
        c.request("GET", rest, headers=hdrs)
        r = c.getresponse()
        body = r.read()
        status = r.status
        out = {}
        for k in ("Content-Range", "ETag", "Last-Modified", "Content-Type"):
            if r.getheader(k):
                out[k] = r.getheader(k)
        c.close()
        if fault == "longer" and status == 206:
            a, b = rng[6:].split("-")
            total = out["Content-Range"].split("/")[1]
            out["Content-Range"] = "bytes %s-%s/%s" % (a, b, total)  # claims the asked range, sends one more
        if fault == "changed" and n >= 0 and total > 1:
            out["ETag"] = '"changed-%d"' % total
            out.pop("Last-Modified", None)
        if fault == "trunc1" and n == 0:
            self.send_response(status)
            for k, v in out.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        self.reply(status, body, out)

    def reply(self, status, body, headers=None):
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
import os

os.rename(sys.argv[1] + ".tmp", sys.argv[1])
srv.serve_forever()
