"""A tiny client of the sandbox page's HTTP API (simcord preview protocol 3)."""

import json
import re
import urllib.request
import uuid


class Client:
    def __init__(self, url):
        m = re.match(r"http://127\.0\.0\.1:(\d+)/#(.+)", url)
        self.port, self.cap = int(m[1]), m[2]
        self.base = f"http://127.0.0.1:{self.port}"
        page = self.req("POST", "/api/pages", {})
        self.ctx = page["context"]["id"]
        self.gen = page["context"]["generation"]
        self.seq = 0
        self.page = page
        self.cmds = {e["invocation"]: e for e in self.req("GET", "/api/commands")["entries"]}

    def req(self, method, path, body=None, timeout=30):
        data = json.dumps(body).encode() if body is not None else None
        r = urllib.request.Request(self.base + path, data=data, method=method)
        r.add_header("X-Simcord-Capability", self.cap)
        r.add_header("Host", f"127.0.0.1:{self.port}")
        if hasattr(self, "ctx"):
            r.add_header("X-Simcord-Context", self.ctx)
        if data is not None:
            r.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(r, timeout=timeout) as resp:
            return json.loads(resp.read())

    def state(self):
        self.page = self.req("GET", "/api/state")
        return self.page

    def action(self, kind, timeout=30, **fields):
        st = self.state()
        self.seq += 1
        body = {"protocol_version": 3, "generation": self.gen, "bot_generation": st["botGeneration"],
                "published_revision": st["publishedRevision"], "sequence": self.seq,
                "request_id": uuid.uuid4().hex, "kind": kind, **fields}
        return self.req("POST", "/api/action", body, timeout=timeout)

    def command(self, invocation, timeout=30, **options):
        e = self.cmds[invocation]
        return self.action("run_command", timeout=timeout, command_id=e["commandId"], path=e["path"],
                           schema_fingerprint=e["schemaFingerprint"], options=options)

    def controls(self):
        st = self.state()
        out = []
        for mid, m in sorted(st["messages"].items(), key=lambda kv: int(kv[0])):
            for comp in _walk(m.get("components") or []):
                out.append((mid, comp))
        return out

    def click(self, label, timeout=30):
        for mid, comp in reversed(self.controls()):
            if comp.get("label") == label and comp.get("control_key"):
                return self.action("click", timeout=timeout, target_id=mid, control_key=comp["control_key"])
        raise KeyError(label)


def _walk(obj):
    if isinstance(obj, dict):
        if "control_key" in obj:
            yield obj
        for v in obj.values():
            yield from _walk(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _walk(v)

