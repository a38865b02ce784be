#!/usr/bin/python3
"""Writes repo.car: a small atproto repository as
com.atproto.sync.getRepo returns it (CARv1, DAG-CBOR blocks, CIDv1
sha256), with a commit, one Merkle search tree node and its records: two
posts of the account, a reply to another account, a repost and a like.
Run from this directory; the output is deterministic."""
import hashlib

DID = "did:plc:fakefakefake"


class Link:
    def __init__(self, cid):
        self.cid = cid


def head(major, n):
    if n < 24:
        return bytes([major << 5 | n])
    for size, code in ((1, 24), (2, 25), (4, 26), (8, 27)):
        if n < 1 << (8 * size):
            return bytes([major << 5 | code]) + n.to_bytes(size, "big")
    raise ValueError(n)


def enc(v):
    if v is None:
        return b"\xf6"
    if isinstance(v, bool):
        return b"\xf5" if v else b"\xf4"
    if isinstance(v, int):
        return head(0, v) if v >= 0 else head(1, -1 - v)
    if isinstance(v, bytes):
        return head(2, len(v)) + v
    if isinstance(v, str):
        b = v.encode()
        return head(3, len(b)) + b
    if isinstance(v, list):
        return head(4, len(v)) + b"".join(enc(x) for x in v)
    if isinstance(v, dict):
        # DAG-CBOR: keys sorted by length, then bytewise
        keys = sorted(v, key=lambda k: (len(k.encode()), k.encode()))
        return head(5, len(v)) + b"".join(enc(k) + enc(v[k]) for k in keys)
    if isinstance(v, Link):
        return b"\xd8\x2a" + enc(b"\x00" + v.cid)
    raise TypeError(v)


def cid(data):
    return b"\x01\x71\x12\x20" + hashlib.sha256(data).digest()


def varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


records = [
    ("app.bsky.feed.like/3lbklike00001",
     {"$type": "app.bsky.feed.like", "createdAt": "2026-11-19T21:00:00.000Z",
      "subject": {"uri": "at://did:plc:alicealicealice/app.bsky.feed.post/3lbkalice0001",
                  "cid": "bafyreib2rxk3rh6kzwq"}}),
    ("app.bsky.feed.post/3lbkpost00001",
     {"$type": "app.bsky.feed.post", "createdAt": "2026-11-20T09:10:00.000Z",
      "langs": ["en"], "text": "Open role: SRE, remote within the EU #hiring"}),
    ("app.bsky.feed.post/3lbkpost00002",
     {"$type": "app.bsky.feed.post", "createdAt": "2026-11-20T11:00:00.000Z",
      "text": "@alice.bsky.social yes, they are",
      "reply": {"root": {"uri": "at://did:plc:alicealicealice/app.bsky.feed.post/3lbkalice0001", "cid": "bafyreib2rxk3rh6kzwq"},
                "parent": {"uri": "at://did:plc:alicealicealice/app.bsky.feed.post/3lbkalice0001", "cid": "bafyreib2rxk3rh6kzwq"}}}),
    ("app.bsky.feed.post/3lbkpost00003",
     {"$type": "app.bsky.feed.post", "createdAt": "2026-11-21T08:30:00.000Z",
      "text": "Caf\u00e9 edition: tidewater.dev/blog/0.4-rel...",
      "facets": [{"index": {"byteStart": 15, "byteEnd": 44},
                  "features": [{"$type": "app.bsky.richtext.facet#link",
                                "uri": "https://tidewater.dev/blog/0.4-release-notes"}]}]}),
    ("app.bsky.feed.repost/3lbkrepo00001",
     {"$type": "app.bsky.feed.repost", "createdAt": "2026-11-20T10:00:00.000Z",
      "subject": {"uri": "at://did:plc:alicealicealice/app.bsky.feed.post/3lbkalice0001",
                  "cid": "bafyreib2rxk3rh6kzwq"}}),
]

blocks = []
entries = []
prev = b""
for key, rec in records:
    data = enc(rec)
    c = cid(data)
    blocks.append((c, data))
    k = key.encode()
    p = 0
    while p < min(len(prev), len(k)) and prev[p] == k[p]:
        p += 1
    entries.append({"p": p, "k": k[p:], "v": Link(c), "t": None})
    prev = k
node = enc({"l": None, "e": entries})
node_cid = cid(node)
commit = enc({"did": DID, "version": 3, "data": Link(node_cid),
              "rev": "3lbkrev000001", "prev": None, "sig": b"\x00" * 64})
commit_cid = cid(commit)
header = enc({"version": 1, "roots": [Link(commit_cid)]})

out = varint(len(header)) + header
for c, data in [(commit_cid, commit), (node_cid, node)] + blocks:
    out += varint(len(c) + len(data)) + c + data
with open("repo.car", "wb") as f:
    f.write(out)
