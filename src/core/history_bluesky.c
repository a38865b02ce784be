/*
 * history_bluesky — a Bluesky account's posts from its repository (the
 * CAR file com.atproto.sync.getRepo answers: CARv1 blocks of DAG-CBOR,
 * decoded with libcbor) or from a saved app.bsky.feed.getAuthorFeed (or
 * getPosts) answer, the one `fronts history pull` reads.
 *
 * A repository names a record only through its Merkle search tree: each
 * tree node lists keys ("app.bsky.feed.post/RKEY", compressed against the
 * node's previous key) with the CID of the record, so the rkey, and with
 * it the post's URI and URL, comes from matching CIDs. A repository
 * carries no counts: its metrics stay unknown. The feed gives likes,
 * reposts and replies (quoteCount has no metric in history).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cbor.h>

#include "core/history_int.h"
#include "core/timeutil.h"

#define POST_COLLECTION	"app.bsky.feed.post"

struct car_block {
	const unsigned char	*cid;
	size_t			 cidlen;
	size_t			 off;		/* of the block, in the file */
	cbor_item_t		*item;		/* NULL: not DAG-CBOR */
};

struct car_key {
	char			*key;
	const unsigned char	*cid;		/* into an item of a block */
	size_t			 cidlen;
};

struct car {
	const struct hist_opts	*o;
	const unsigned char	*data;
	size_t			 len;
	struct car_block	*blocks;
	int			 nblocks;
	struct car_key		*keys;
	int			 nkeys;
	char			*did;
};

static int
car_fail(const struct car *c, size_t off, const char *what,
    struct error *err)
{
	return error_set(err, EXIT_ERROR, "%s: byte %zu: %s", c->o->name, off,
	    what);
}

/* An unsigned LEB128 varint at *off (advanced); -1 when it runs past the
 * end or beyond 63 bits. */
static int
varint(const unsigned char *d, size_t len, size_t *off, uint64_t *out)
{
	uint64_t v = 0;
	int shift = 0;

	while (*off < len && shift < 63) {
		v |= (uint64_t)(d[*off] & 0x7f) << shift;
		if ((d[(*off)++] & 0x80) == 0) {
			*out = v;
			return 0;
		}
		shift += 7;
	}
	return -1;
}

/* The length of the CID at d (v0: a bare sha256 multihash; v1: version,
 * codec, multihash), and its codec; 0 when it is none. */
static size_t
cid_len(const unsigned char *d, size_t len, uint64_t *codec)
{
	size_t off = 0;
	uint64_t ver, code, hlen;

	if (len >= 34 && d[0] == 0x12 && d[1] == 0x20) {
		*codec = 0x70;
		return 34;
	}
	if (varint(d, len, &off, &ver) != 0 || ver != 1 ||
	    varint(d, len, &off, codec) != 0 ||
	    varint(d, len, &off, &code) != 0 ||
	    varint(d, len, &off, &hlen) != 0 || hlen > len - off)
		return 0;
	return off + (size_t)hlen;
}

#define CBOR_MAX_DEPTH	64

/* The head of the CBOR item at d[*off]: major type and argument; false
 * for what DAG-CBOR never holds (indefinite lengths, reserved codes). */
static bool
cbor_head(const unsigned char *d, size_t len, size_t *off, int *major,
    uint64_t *arg)
{
	int ai, n, i;

	if (*off >= len)
		return false;
	*major = d[*off] >> 5;
	ai = d[(*off)++] & 31;
	if (ai < 24) {
		*arg = (uint64_t)ai;
		return true;
	}
	if (ai > 27)
		return false;
	n = 1 << (ai - 24);
	if ((size_t)n > len - *off)
		return false;
	for (*arg = 0, i = 0; i < n; i++)
		*arg = *arg << 8 | d[(*off)++];
	return true;
}

/* Is d one well-formed CBOR item whose every declared length fits in
 * what is left? libcbor allocates a map or an array at its declared size
 * before reading it, so a few bytes could otherwise ask for gigabytes. */
static bool
cbor_sane(const unsigned char *d, size_t len)
{
	uint64_t left[CBOR_MAX_DEPTH + 1], arg;
	size_t off = 0;
	int depth = 0, major;

	left[0] = 1;
	while (depth >= 0 && left[depth] > 0) {
		if (!cbor_head(d, len, &off, &major, &arg))
			return false;
		left[depth]--;
		if (major == 2 || major == 3) {
			if (arg > len - off)
				return false;
			off += (size_t)arg;
		} else if (major == 4 || major == 5 || major == 6) {
			if (major == 5 && arg > (len - off) / 2)
				return false;
			if (major == 6)
				arg = 1;
			else if (major == 5)
				arg *= 2;
			if (arg > len - off || depth == CBOR_MAX_DEPTH)
				return false;
			if (arg > 0)
				left[++depth] = arg;
		} else if (major == 7 && arg > 23 && arg < 256)
			return false;	/* a two-byte simple value */
		while (depth > 0 && left[depth] == 0)
			depth--;
	}
	return off == len;
}

/* cbor_load of exactly d[0..len), or NULL. */
static cbor_item_t *
cbor_load_sane(const unsigned char *d, size_t len)
{
	struct cbor_load_result r;
	cbor_item_t *it;

	if (!cbor_sane(d, len))
		return NULL;
	it = cbor_load(d, len, &r);
	if (it != NULL && r.read != len)
		cbor_decref(&it);
	return it;
}

static cbor_item_t *
map_get(const cbor_item_t *m, const char *key)
{
	struct cbor_pair *p;
	size_t i, n, kl = strlen(key);

	if (m == NULL || !cbor_isa_map(m))
		return NULL;
	p = cbor_map_handle(m);
	n = cbor_map_size(m);
	for (i = 0; i < n; i++)
		if (cbor_isa_string(p[i].key) &&
		    cbor_string_is_definite(p[i].key) &&
		    cbor_string_length(p[i].key) == kl &&
		    memcmp(cbor_string_handle(p[i].key), key, kl) == 0)
			return p[i].value;
	return NULL;
}

/* A definite text string member as a fresh C string (NULs refused). */
static char *
map_str(const cbor_item_t *m, const char *key)
{
	cbor_item_t *v = map_get(m, key);
	size_t n;

	if (v == NULL || !cbor_isa_string(v) || !cbor_string_is_definite(v))
		return NULL;
	n = cbor_string_length(v);
	if (memchr(cbor_string_handle(v), '\0', n) != NULL)
		return NULL;
	return xstrndup((const char *)cbor_string_handle(v), n);
}

/* A CID link (tag 42 around a byte string 0x00 + CID): its CID bytes. */
static bool
link_cid(const cbor_item_t *v, const unsigned char **cid, size_t *len)
{
	cbor_item_t *b;
	bool ok;

	if (v == NULL || !cbor_isa_tag(v) || cbor_tag_value(v) != 42)
		return false;
	b = cbor_tag_item(v);
	ok = cbor_isa_bytestring(b) && cbor_bytestring_is_definite(b) &&
	    cbor_bytestring_length(b) > 1 && cbor_bytestring_handle(b)[0] == 0;
	if (ok) {
		*cid = cbor_bytestring_handle(b) + 1;
		*len = cbor_bytestring_length(b) - 1;
	}
	cbor_decref(&b);	/* the tag still holds it */
	return ok;
}

/* The keys of one tree node, each with its record's CID. */
static void
car_node_keys(struct car *c, const cbor_item_t *node)
{
	cbor_item_t *e = map_get(node, "e"), *k, *p, **v;
	char *prev = xstrdup(""), *key;
	size_t i, n, pl, kl;

	if (e == NULL || !cbor_isa_array(e))
		goto out;
	v = cbor_array_handle(e);
	n = cbor_array_size(e);
	for (i = 0; i < n; i++) {
		p = map_get(v[i], "p");
		k = map_get(v[i], "k");
		if (p == NULL || !cbor_isa_uint(p) || k == NULL ||
		    !cbor_isa_bytestring(k) || !cbor_bytestring_is_definite(k))
			break;
		pl = (size_t)cbor_get_int(p);
		kl = cbor_bytestring_length(k);
		if (pl > strlen(prev) || kl > 1024 ||
		    memchr(cbor_bytestring_handle(k), '\0', kl) != NULL)
			break;
		key = xmalloc(pl + kl + 1);
		memcpy(key, prev, pl);
		memcpy(key + pl, cbor_bytestring_handle(k), kl);
		key[pl + kl] = '\0';
		free(prev);
		prev = key;
		c->keys = xrealloc(c->keys, (size_t)(c->nkeys + 1) *
		    sizeof *c->keys);
		c->keys[c->nkeys].key = xstrdup(key);
		if (!link_cid(map_get(v[i], "v"), &c->keys[c->nkeys].cid,
		    &c->keys[c->nkeys].cidlen)) {
			free(c->keys[c->nkeys].key);
			break;
		}
		c->nkeys++;
	}
out:
	free(prev);
}

static int
car_blocks(struct car *c, size_t off, struct error *err)
{
	struct car_block *b;
	uint64_t blen, codec;
	size_t start, cl;

	while (off < c->len) {
		start = off;
		if (varint(c->data, c->len, &off, &blen) != 0 ||
		    blen > c->len - off)
			return car_fail(c, start, "a block runs past the end "
			    "of the file (truncated?)", err);
		if ((cl = cid_len(c->data + off, (size_t)blen, &codec)) == 0)
			return car_fail(c, off, "a block without a valid CID",
			    err);
		c->blocks = xrealloc(c->blocks, (size_t)(c->nblocks + 1) *
		    sizeof *c->blocks);
		b = &c->blocks[c->nblocks++];
		b->cid = c->data + off;
		b->cidlen = cl;
		b->off = start;
		b->item = NULL;
		if (codec == 0x71 && (b->item = cbor_load_sane(c->data + off +
		    cl, (size_t)blen - cl)) == NULL)
			return car_fail(c, off + cl, "a block that is not valid "
			    "DAG-CBOR", err);
		off += (size_t)blen;
	}
	return 0;
}

static int
car_header(struct car *c, size_t *off, struct error *err)
{
	cbor_item_t *h, *v;
	uint64_t hlen;
	int ok;

	if (varint(c->data, c->len, off, &hlen) != 0 || hlen == 0 ||
	    hlen > c->len - *off)
		return car_fail(c, 0, "not a CAR file (no header)", err);
	if ((h = cbor_load_sane(c->data + *off, (size_t)hlen)) == NULL)
		return car_fail(c, *off, "the CAR header is not CBOR", err);
	v = map_get(h, "version");
	ok = v != NULL && cbor_isa_uint(v) && cbor_get_int(v) == 1;
	cbor_decref(&h);
	if (!ok)
		return car_fail(c, *off, "not a version 1 CAR file", err);
	*off += (size_t)hlen;
	return 0;
}

static const char *
car_key_of(const struct car *c, const struct car_block *b)
{
	int i;

	for (i = 0; i < c->nkeys; i++)
		if (c->keys[i].cidlen == b->cidlen &&
		    memcmp(c->keys[i].cid, b->cid, b->cidlen) == 0)
			return c->keys[i].key;
	return NULL;
}

/* Why a post record is not one of the account's posts, or NULL. */
static const char *
reply_skip(const char *parent, const char *did)
{
	size_t n = did != NULL ? strlen(did) : 0;

	if (parent == NULL)
		return NULL;
	if (n > 0 && strncmp(parent, "at://", 5) == 0 &&
	    strncmp(parent + 5, did, n) == 0 && parent[5 + n] == '/')
		return NULL;
	return "a reply to another account (replies to others are "
	    "conversation, not posts)";
}

#define MAX_LINKS	64

/* The uri of a record facet's link feature, or NULL. */
static char *
car_facet_uri(const cbor_item_t *facet)
{
	cbor_item_t *feats = map_get(facet, "features"), **v;
	char *type, *uri = NULL;
	size_t i, n;

	if (feats == NULL || !cbor_isa_array(feats))
		return NULL;
	v = cbor_array_handle(feats);
	n = cbor_array_size(feats);
	for (i = 0; i < n && uri == NULL; i++) {
		type = map_str(v[i], "$type");
		if (type != NULL && strcmp(type, "app.bsky.richtext.facet#link") == 0)
			uri = map_str(v[i], "uri");
		free(type);
	}
	return uri;
}

/* The record's text with its link facets' full URLs. */
static char *
car_text(const cbor_item_t *rec, char *text)
{
	cbor_item_t *facets = map_get(rec, "facets"), **v, *ix, *a, *z;
	struct hist_link links[MAX_LINKS];
	char *uris[MAX_LINKS], *out;
	size_t i, n;
	int k = 0, j;

	if (facets == NULL || !cbor_isa_array(facets))
		return text;
	v = cbor_array_handle(facets);
	n = cbor_array_size(facets);
	for (i = 0; i < n && k < MAX_LINKS; i++) {
		ix = map_get(v[i], "index");
		a = map_get(ix, "byteStart");
		z = map_get(ix, "byteEnd");
		if (a == NULL || z == NULL || !cbor_isa_uint(a) ||
		    !cbor_isa_uint(z) || (uris[k] = car_facet_uri(v[i])) == NULL)
			continue;
		links[k] = (struct hist_link){ (size_t)cbor_get_int(a),
		    (size_t)cbor_get_int(z), uris[k] };
		k++;
	}
	out = hist_expand_links(text, links, k);
	for (j = 0; j < k; j++)
		free(uris[j]);
	free(text);
	return out;
}

static int
car_post(struct car *c, const struct car_block *b, struct hist_batch *out,
    struct error *err)
{
	const char *key = car_key_of(c, b), *why;
	cbor_item_t *reply = map_get(map_get(b->item, "reply"), "parent");
	char *text = map_str(b->item, "text"), *at = map_str(b->item,
	    "createdAt"), *parent = map_str(reply, "uri"), what[96];
	struct hist_item *it;
	time_t t;
	int rc = 0;

	snprintf(what, sizeof what, "block at byte %zu", b->off);
	if (text == NULL || at == NULL || time_parse_iso(at, &t) != 0)
		rc = car_fail(c, b->off, "a post record without text or "
		    "createdAt", err);
	else if (key == NULL ||
	    strncmp(key, POST_COLLECTION "/", sizeof POST_COLLECTION) != 0)
		hist_skip_add(out, what, "a post record the repository's "
		    "tree does not list");
	else if ((why = reply_skip(parent, c->did)) != NULL)
		hist_skip_add(out, key, "%s", why);
	else {
		it = hist_item_add(out);
		xasprintf(&it->platform_id, "at://%s/%s", c->did, key);
		xasprintf(&it->url, "https://bsky.app/profile/%s/post/%s",
		    c->did, key + sizeof POST_COLLECTION);
		it->posted_at = t;
		it->text = car_text(b->item, text);
		text = NULL;
	}
	free(text);
	free(at);
	free(parent);
	return rc;
}

static void
car_free(struct car *c)
{
	int i;

	for (i = 0; i < c->nblocks; i++)
		if (c->blocks[i].item != NULL)
			cbor_decref(&c->blocks[i].item);
	for (i = 0; i < c->nkeys; i++)
		free(c->keys[i].key);
	free(c->blocks);
	free(c->keys);
	free(c->did);
}

static bool
is_post(const cbor_item_t *item)
{
	char *type = map_str(item, "$type");
	bool yes = type != NULL && strcmp(type, POST_COLLECTION) == 0;

	free(type);
	return yes;
}

int
hist_parse_bluesky_car(const struct hist_opts *o, const char *data,
    size_t len, struct hist_batch *out, struct error *err)
{
	struct car c = { .o = o, .data = (const unsigned char *)data,
	    .len = len };
	size_t off = 0;
	int i, rc;

	if ((rc = car_header(&c, &off, err)) == 0)
		rc = car_blocks(&c, off, err);
	for (i = 0; rc == 0 && i < c.nblocks; i++) {
		if (c.blocks[i].item == NULL)
			continue;
		if (map_get(c.blocks[i].item, "e") != NULL &&
		    map_get(c.blocks[i].item, "l") != NULL)
			car_node_keys(&c, c.blocks[i].item);
		else if (c.did == NULL && map_get(c.blocks[i].item, "data"))
			c.did = map_str(c.blocks[i].item, "did");
	}
	if (rc == 0 && c.did == NULL)
		rc = car_fail(&c, 0, "no commit (with the account's did) in "
		    "the repository", err);
	for (i = 0; rc == 0 && i < c.nblocks; i++)
		if (c.blocks[i].item != NULL && is_post(c.blocks[i].item))
			rc = car_post(&c, &c.blocks[i], out, err);
	car_free(&c);
	return rc;
}

static const char *
feed_skip(const cJSON *entry, const cJSON *post)
{
	const cJSON *reason = cJSON_GetObjectItemCaseSensitive(entry, "reason");
	const char *rt = json_str(reason, "$type");
	const cJSON *rec = cJSON_GetObjectItemCaseSensitive(post, "record");
	const cJSON *reply = cJSON_GetObjectItemCaseSensitive(rec, "reply");
	const cJSON *author = cJSON_GetObjectItemCaseSensitive(post, "author");

	if (rt != NULL && strstr(rt, "reasonRepost") != NULL)
		return "a repost";
	return reply_skip(json_str(cJSON_GetObjectItemCaseSensitive(reply,
	    "parent"), "uri"), json_str(author, "did"));
}

/* The record's text with its link facets' full URLs. */
static char *
feed_text(const cJSON *rec, const char *text)
{
	struct hist_link links[MAX_LINKS];
	const cJSON *f, *ix, *ft, *a, *z;
	const char *uri, *type;
	long as, zs;
	int k = 0;

	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(rec, "facets")) {
		ix = cJSON_GetObjectItemCaseSensitive(f, "index");
		a = cJSON_GetObjectItemCaseSensitive(ix, "byteStart");
		z = cJSON_GetObjectItemCaseSensitive(ix, "byteEnd");
		uri = NULL;
		cJSON_ArrayForEach(ft, cJSON_GetObjectItemCaseSensitive(f,
		    "features"))
			if ((type = json_str(ft, "$type")) != NULL &&
			    strcmp(type, "app.bsky.richtext.facet#link") == 0)
				uri = json_str(ft, "uri");
		if (uri == NULL || k == MAX_LINKS || !json_int_in(a, 0, 1 << 20,
		    &as) || !json_int_in(z, 0, 1 << 20, &zs))
			continue;
		links[k++] = (struct hist_link){ (size_t)as, (size_t)zs, uri };
	}
	return hist_expand_links(text, links, k);
}

static int
feed_post(const struct hist_opts *o, const struct hist_src *src,
    const cJSON *entry, int idx, struct hist_batch *b, struct error *err)
{
	const cJSON *post = cJSON_GetObjectItemCaseSensitive(entry, "post");
	const cJSON *rec, *author;
	const char *uri, *text, *at, *handle, *why;
	struct hist_item *it;
	char *rkey;
	time_t t;

	if (post == NULL)
		post = entry;	/* getPosts: the posts themselves */
	rec = cJSON_GetObjectItemCaseSensitive(post, "record");
	author = cJSON_GetObjectItemCaseSensitive(post, "author");
	uri = json_str(post, "uri");
	text = json_str(rec, "text");
	at = json_str(rec, "createdAt");
	handle = json_str(author, "handle");
	if (uri == NULL || text == NULL || at == NULL ||
	    strncmp(uri, "at://", 5) != 0)
		return error_set(err, EXIT_ERROR, "%s: feed[%d]: expected a "
		    "post with uri, record.text and record.createdAt", o->name,
		    idx);
	if (time_parse_iso(at, &t) != 0)
		return hist_bad_time(o, src, uri, "record.createdAt", at, err);
	if ((why = feed_skip(entry, post)) != NULL) {
		hist_skip_add(b, uri, "%s", why);
		return 0;
	}
	it = hist_item_add(b);
	it->platform_id = xstrdup(uri);
	rkey = hist_last_segment(uri);
	xasprintf(&it->url, "https://bsky.app/profile/%s/post/%s",
	    handle != NULL ? handle : json_str(author, "did"), rkey);
	free(rkey);
	it->posted_at = t;
	it->text = feed_text(rec, text);
	hist_metric_json(b, it, HIST_LIKES,
	    cJSON_GetObjectItemCaseSensitive(post, "likeCount"));
	hist_metric_json(b, it, HIST_REPOSTS,
	    cJSON_GetObjectItemCaseSensitive(post, "repostCount"));
	hist_metric_json(b, it, HIST_REPLIES,
	    cJSON_GetObjectItemCaseSensitive(post, "replyCount"));
	return 0;
}

int
hist_parse_bluesky_feed(const struct hist_opts *o, const char *data,
    size_t len, struct hist_batch *b, struct error *err)
{
	const struct hist_src src = { data, len };
	const cJSON *feed, *e;
	const char *cursor;
	cJSON *j;
	int i = 0, rc = 0;

	if ((j = hist_json_parse(o, data, len, 0, err)) == NULL)
		return -1;
	if ((feed = cJSON_GetObjectItemCaseSensitive(j, "feed")) == NULL)
		feed = cJSON_GetObjectItemCaseSensitive(j, "posts");
	if (!cJSON_IsArray(feed)) {
		cJSON_Delete(j);
		return error_set(err, EXIT_ERROR, "%s: expected a getAuthorFeed "
		    "answer (\"feed\") or a getPosts answer (\"posts\")",
		    o->name);
	}
	cJSON_ArrayForEach(e, feed)
		if ((rc = feed_post(o, &src, e, i++, b, err)) != 0)
			break;
	if (rc == 0 && (cursor = json_str(j, "cursor")) != NULL)
		b->next = xstrdup(cursor);
	cJSON_Delete(j);
	return rc;
}
