#!/usr/bin/env python3
"""A signature-checking proxy in front of s3rver (which checks none), for
the remote-IO tests on loopback.

Usage: s3_sig_proxy.py PORTFILE UPSTREAM_PORT ACCESS_KEY SECRET_KEY
Every request must carry an AWS Signature Version 4 Authorization header
made with ACCESS_KEY/SECRET_KEY over the request as received (this file's
own verifier: canonical request, string to sign, derived key); otherwise
403 with an S3 error body (SignatureDoesNotMatch, InvalidAccessKeyId,
AccessDenied). Good requests are forwarded to s3rver. s3rver 3.7.1 answers
every ListObjectsV2 request whose page is truncated with InternalError, so
a V2 listing is forwarded as a V1 listing (marker = the continuation token)
and its page rewritten as V2 (KeyCount, NextContinuationToken); pages hold
at most MAX_KEYS (PQT_S3_PROXY_MAX_KEYS, default 400) keys, so listings of
more keys take several pages. A line per request
goes to PORTFILE.log: "ok|bad METHOD PATH RANGE".
"""
import base64
import hashlib
import hmac
import http.client
import os
import re
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UP, AK, SK = int(sys.argv[2]), sys.argv[3], sys.argv[4]
logf = open(sys.argv[1] + ".log", "a", buffering=1)
MAX_KEYS = int(os.environ.get("PQT_S3_PROXY_MAX_KEYS", "400"))


def v2_to_v1(path):
    """The V1 request of a V2 listing request (or None when not one)."""
    p, _, q = path.partition("?")
    qs = urllib.parse.parse_qs(q, keep_blank_values=True)
    if qs.get("list-type") != ["2"]:
        return None
    v1 = {"prefix": qs.get("prefix", [""])[0], "max-keys": str(MAX_KEYS)}
    tok = qs.get("continuation-token", [""])[0]
    if tok:
        v1["marker"] = base64.urlsafe_b64decode(tok.encode()).decode()
    return p + "?" + urllib.parse.urlencode(v1)


def v1_page_to_v2(body):
    text = body.decode()
    contents = re.findall(r"<Contents>.*?</Contents>", text, re.S)
    trunc = "<IsTruncated>true</IsTruncated>" in text
    name = re.search(r"<Name>(.*?)</Name>", text)
    prefix = re.search(r"<Prefix>(.*?)</Prefix>", text)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
           "<Name>%s</Name><Prefix>%s</Prefix><KeyCount>%d</KeyCount><MaxKeys>%d</MaxKeys>" % (
               name.group(1) if name else "", prefix.group(1) if prefix else "", len(contents), MAX_KEYS),
           "<IsTruncated>%s</IsTruncated>" % ("true" if trunc else "false")]
    if trunc and contents:
        last = re.search(r"<Key>(.*?)</Key>", contents[-1], re.S).group(1)
        last = last.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&apos;", "'").replace("&amp;", "&")
        out.append("<NextContinuationToken>%s</NextContinuationToken>" % base64.urlsafe_b64encode(last.encode()).decode())
    out += contents
    out.append("</ListBucketResult>")
    return "".join(out).encode()


def hm(k, m):
    return hmac.new(k, m.encode(), hashlib.sha256).digest()


def verify(method, raw_path, headers):
    auth = headers.get("Authorization", "")
    if not auth.startswith("AWS4-HMAC-SHA256 "):
        return "AccessDenied"
    fields = dict(p.strip().split("=", 1) for p in auth[len("AWS4-HMAC-SHA256 "):].split(","))
    cred = fields.get("Credential", "").split("/")
    if len(cred) != 5 or cred[4] != "aws4_request" or cred[3] != "s3":
        return "AuthorizationHeaderMalformed"
    if cred[0] != AK:
        return "InvalidAccessKeyId"
    signed = fields.get("SignedHeaders", "").split(";")
    if "host" not in signed or "x-amz-date" not in signed:
        return "AccessDenied"
    path, _, query = raw_path.partition("?")
    params = sorted((p if "=" in p else p + "=") for p in query.split("&") if p)
    params = sorted(params, key=lambda p: (p.split("=", 1)[0], p.split("=", 1)[1]))
    canon_headers = "".join("%s:%s\n" % (h, " ".join((headers.get(h) or "").split())) for h in signed)
    payload = headers.get("x-amz-content-sha256", "")
    creq = "\n".join([method, path, "&".join(params), canon_headers, ";".join(signed), payload])
    date = headers.get("x-amz-date", "")
    scope = "/".join(cred[1:])
    sts = "\n".join(["AWS4-HMAC-SHA256", date, scope, hashlib.sha256(creq.encode()).hexdigest()])
    k = hm(("AWS4" + SK).encode(), cred[1])
    for part in (cred[2], cred[3], "aws4_request"):
        k = hm(k, part)
    want = hmac.new(k, sts.encode(), hashlib.sha256).hexdigest()
    return None if hmac.compare_digest(want, fields.get("Signature", "")) else "SignatureDoesNotMatch"


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_GET(self):
        bad = verify("GET", self.path, self.headers)
        logf.write("%s GET %s %s\n" % ("bad" if bad else "ok", self.path, self.headers.get("Range", "")))
        if bad:
            body = ("<?xml version=\"1.0\"?><Error><Code>%s</Code><Message>no</Message></Error>" % bad).encode()
            self.send_response(403)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        fwd = {k: v for k, v in self.headers.items() if k.lower() in ("range", "if-match")}
        v1 = v2_to_v1(self.path)
        c = http.client.HTTPConnection("127.0.0.1", UP, timeout=10)
        c.request("GET", v1 or self.path, headers=fwd)
        r = c.getresponse()
        body = r.read()
        if v1 and r.status == 200:
            body = v1_page_to_v2(body)
        self.send_response(r.status)
        for k in ("Content-Range", "ETag", "Last-Modified", "Content-Type"):
            if r.getheader(k):
                self.send_header(k, r.getheader(k))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        c.close()


srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
srv.serve_forever()
