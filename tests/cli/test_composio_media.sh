#!/bin/sh
# Images to X through Composio against the fake (tests/servers/fake_social.py,
# which holds each step to what Composio's SDK and X document): the dry run
# shows every request of every image in order (the file store's upload
# request with the cleaned bytes' md5, the PUT to the presigned URL with the
# same Content-Type, TWITTER_UPLOAD_MEDIA with the file as
# {name, mimetype, s3key}) before the post naming the media ids; a live
# thread sends each image once, without its camera metadata, and each part
# names its own; an image that does not upload leaves the post unsent;
# `fronts check` verifies the media tool; LinkedIn images stay illegal.
. "$(dirname "$0")/../lib.sh"

SENTINEL=SENTINEL-6a0f31
export COMPOSIO_API_KEY="ck-$SENTINEL-composio" FAKE_COMPOSIO_KEY="ck-$SENTINEL-composio"
export FIXTURE_THREAD=1
unset FRONTS_TEST_PAUSE_AT FRONTS_TEST_RESUME_FILE

. "$TOP/tests/cli/fake_social.sh"
. "$TOP/tests/cli/publish_drive.sh"
trap 'stop_fake; [ -n "$KEEP" ] || rm -rf "$TMPD"' EXIT

# --- legality: X takes the thread's JPEGs now ---------------------------------
start_fake x ok
proj x x:d8:1
expect_exit "drafts: exits 0" 0 "$FRONTS" drafts -C "$P"
expect_no_grep "drafts: no 'not yet' on X" 'no images to X yet' "$TMPD/out"

# --- dry run: every request of every image, in order --------------------------
expect_exit "dry run exits 0" 0 "$FRONTS" publish "$P/plan.json" -C "$P"
D=$TMPD/out
st=$(line "$D" "POST http://127.0.0.1:$PORT/api/v3/files/upload/request")
put=$(line "$D" "PUT <new_presigned_url of file 1>")
up=$(line "$D" "/api/v3.1/tools/execute/TWITTER_UPLOAD_MEDIA")
post=$(line "$D" "/api/v3.1/tools/execute/TWITTER_CREATION_OF_A_POST")
check "dry run: file store, PUT, media tool, then the post" \
    "$([ -n "$st" ] && [ "$st" -lt "$put" ] && [ "$put" -lt "$up" ] && [ "$up" -lt "$post" ] && echo ordered)" ordered
expect_grep "dry run: the upload request names the tool and the cleaned bytes' md5" \
    '"md5":"[0-9a-f]{32}","filename":"image1.jpg","mimetype":"image/jpeg","tool_slug":"TWITTER_UPLOAD_MEDIA","toolkit_slug":"twitter"' "$D"
expect_grep "dry run: the PUT carries the file's type" 'Content-Type: image/jpeg' "$D"
expect_grep "dry run: the bytes shown as their size and hash" 'bytes of image/jpeg, 32x24, sha256 ' "$D"
expect_grep "dry run: the media tool gets the file by its key" \
    '"media":\{"name":"image1.jpg","mimetype":"image/jpeg","s3key":"<key of file 1>"\},"media_category":"tweet_image"' "$D"
expect_grep "dry run: the post names the media id" '"media__media_ids":\["<id of upload 1>"\]' "$D"
expect_grep "dry run: says the alt text does not go" "image 1's alt text is not sent: no Composio tool carries alt text to x" "$D"
expect_no_grep "dry run: no secret" "$SENTINEL" "$D" "$TMPD/err"
check "dry run: nothing sent" "$(requests /api/v3)" 0

# --- live: each image once, clean, named by its own part ----------------------
drive x "expect:$PROMPT" send:y end
check "live: exit 0" "$RC" 0
check "live: three tweets" "$(posts | wc -l)" 3
check "live: two images, both PUT and uploaded without the camera make" \
    "$(grep -c '"method": "PUT"' "$LOG")/$(grep '"ev": "upload"' "$LOG" | grep -c '"has_camera": false')" 2/2
m1=$(grep '"ev": "upload"' "$LOG" | sed -n '1s/.*"id": "\([0-9]*\)".*/\1/p')
m2=$(grep '"ev": "upload"' "$LOG" | sed -n '2s/.*"id": "\([0-9]*\)".*/\1/p')
check "live: part 1 names its image" "$(posts | sed -n 1p | grep -c "\"media\": \[\"$m1\"\]")" 1
check "live: part 2 has none" "$(posts | sed -n 2p | grep -c '"media": \[\]')" 1
check "live: part 3 names its own" "$(posts | sed -n 3p | grep -c "\"media\": \[\"$m2\"\]")" 1
expect_grep "live: uploads in the trajectory" '"event":"publish-upload"' "$P/.fronts/trajectories/publish.jsonl"

# --- fronts check: the media tool and its arguments ---------------------------
"$FRONTS" check -C "$P" >"$TMPD/out" 2>&1	# other fronts lack credentials here
check "check: no FAIL for the X front" \
    "$(sed -n '/^front x /,/^front /p' "$TMPD/out" | grep -c FAIL)" 0
expect_grep "check: the media tool exists" 'tool TWITTER_UPLOAD_MEDIA exists' "$TMPD/out"
expect_grep "check: it takes what fronts sends" 'tool TWITTER_UPLOAD_MEDIA takes every argument fronts sends' "$TMPD/out"
expect_grep "check: the post tool takes media__media_ids" 'tool TWITTER_CREATION_OF_A_POST takes every argument fronts sends' "$TMPD/out"

# --- the fake holds the presigned PUT to the upload request ------------------
start_fake s3 ok
key=$(curl -s -H "x-api-key: $FAKE_COMPOSIO_KEY" -H 'Content-Type: application/json' \
    -d '{"md5":"00000000000000000000000000000000","filename":"a.png","mimetype":"image/png","tool_slug":"TWITTER_UPLOAD_MEDIA","toolkit_slug":"twitter"}' \
    "http://127.0.0.1:$PORT/api/v3/files/upload/request" | $PY -c 'import json,sys; print(json.load(sys.stdin)["new_presigned_url"])')
check "fake: a PUT of another Content-Type is refused (403)" \
    "$(curl -s -o /dev/null -w '%{http_code}' -X PUT -H 'Content-Type: image/jpeg' --data-binary x "$key")" 403
check "fake: bytes of another md5 are refused (400)" \
    "$(curl -s -o /dev/null -w '%{http_code}' -X PUT -H 'Content-Type: image/png' --data-binary x "$key")" 400
check "fake: an upload request without md5 is refused (400)" \
    "$(curl -s -o /dev/null -w '%{http_code}' -H "x-api-key: $FAKE_COMPOSIO_KEY" -H 'Content-Type: application/json' \
        -d '{"filename":"a.png","mimetype":"image/png","tool_slug":"TWITTER_UPLOAD_MEDIA","toolkit_slug":"twitter"}' \
        "http://127.0.0.1:$PORT/api/v3/files/upload/request")" 400

# --- an image that does not upload: the post is not sent ----------------------
start_fake xfail provider-error
proj xfail x:d8:1
drive xfail "expect:$PROMPT" send:y end
expect_grep "upload refused: the outcome says the image did not upload" \
    'image 1 of 1 did not upload \(the post was not sent\)' "$TMPD/xfail.out"
check "upload refused: no tweet" "$(posts | wc -l)" 0
check "upload refused: the ledger says failed" \
    "$(grep -c '"record":"failed"' "$P/.fronts/ledger.jsonl")" 1

# --- LinkedIn: the post tool takes the files in `images` ---------------------
start_fake li ok
proj li linkedin:d8:1
$PY - "$P/drafts.jsonl" <<'PYEOF'
import json, sys
p = sys.argv[1]
lines = [json.loads(l) for l in open(p)]
for d in lines:
    if d["id"] == "d8":
        del d["thread"]
open(p, "w").write("".join(json.dumps(d) + "\n" for d in lines))
PYEOF
"$FRONTS" drafts -C "$P" >"$TMPD/li.out" 2>&1
expect_no_grep "linkedin: an image is legal now" "documents no shape|no images to LinkedIn" "$TMPD/li.out"
expect_exit "linkedin dry run exits 0" 0 "$FRONTS" publish "$P/plan.json" -C "$P"
D=$TMPD/out
st=$(line "$D" "POST http://127.0.0.1:$PORT/api/v3/files/upload/request")
put=$(line "$D" "PUT <new_presigned_url of file 1>")
post=$(line "$D" "/api/v3.1/tools/execute/LINKEDIN_CREATE_LINKED_IN_POST")
check "linkedin dry run: file store, PUT, then the post" \
    "$([ -n "$st" ] && [ -n "$put" ] && [ -n "$post" ] && [ "$st" -lt "$put" ] && [ "$put" -lt "$post" ] && echo ordered)" ordered
expect_no_grep "linkedin dry run: no media tool" "TWITTER_UPLOAD_MEDIA|REGISTER_IMAGE" "$D"
expect_grep "linkedin dry run: the file is staged for the post tool" \
    '"filename":"image1.jpg","mimetype":"image/jpeg","tool_slug":"LINKEDIN_CREATE_LINKED_IN_POST","toolkit_slug":"linkedin"' "$D"
expect_grep "linkedin dry run: the post's images name the file by its key" \
    '"images":\[\{"name":"image1.jpg","mimetype":"image/jpeg","s3key":"<key of file 1>"\}\]' "$D"
expect_grep "linkedin dry run: says the alt text does not go" \
    "image 1's alt text is not sent: no Composio tool carries alt text to linkedin" "$D"
check "linkedin dry run: nothing sent" "$(requests /api/v3)" 0

drive li "expect:$PROMPT" send:y end
check "linkedin live: exit 0" "$RC" 0
check "linkedin live: one post" "$(posts | wc -l)" 1
check "linkedin live: the image PUT once, without the camera make" \
    "$(grep -c '"method": "PUT"' "$LOG")/$(grep '"ev": "upload"' "$LOG" | grep -c '"has_camera": false')" 1/1
k1=$(grep '"ev": "file-request"' "$LOG" | sed -n '1s/.*"key": "\([^"]*\)".*/\1/p')
check "linkedin live: the post names the staged file" \
    "$(posts | grep -c -F "\"s3key\": \"$k1\"")" 1
check "linkedin live: the ledger says sent" \
    "$(grep -c '"record":"sent"' "$P/.fronts/ledger.jsonl")" 1

"$FRONTS" check -C "$P" >"$TMPD/out" 2>&1
expect_grep "linkedin check: images is an array of uploaded files" \
    'tool LINKEDIN_CREATE_LINKED_IN_POST takes "images" as an array of uploaded files' "$TMPD/out"
expect_grep "linkedin check: the post tool takes images" \
    'tool LINKEDIN_CREATE_LINKED_IN_POST takes every argument fronts sends' "$TMPD/out"

# A schema that takes something else (image URNs): check fails, naming it.
start_fake liurn li-urn-images
proj liurn linkedin:d8:1
"$FRONTS" check -C "$P" >"$TMPD/out" 2>&1
expect_grep "linkedin check: another images shape fails, named" \
    'FAIL.*tool LINKEDIN_CREATE_LINKED_IN_POST.s "images" is array of string \(not file_uploadable\), not an array of uploaded files' "$TMPD/out"

# The fake refuses files not staged for the tool, and non-files.
start_fake li2 ok
exec_li() {
	curl -s -H "x-api-key: $FAKE_COMPOSIO_KEY" -H 'Content-Type: application/json' \
	    -d "{\"arguments\":{\"author\":\"urn:li:organization:1\",\"commentary\":\"hi\",\"visibility\":\"PUBLIC\",\"images\":$1},\"user_id\":\"tidewater\"}" \
	    "http://127.0.0.1:$PORT/api/v3.1/tools/execute/LINKEDIN_CREATE_LINKED_IN_POST"
}
key=$(curl -s -H "x-api-key: $FAKE_COMPOSIO_KEY" -H 'Content-Type: application/json' \
    -d '{"md5":"00000000000000000000000000000000","filename":"a.png","mimetype":"image/png","tool_slug":"TWITTER_UPLOAD_MEDIA","toolkit_slug":"twitter"}' \
    "http://127.0.0.1:$PORT/api/v3/files/upload/request" | $PY -c 'import json,sys; print(json.load(sys.stdin)["key"])')
exec_li "[{\"name\":\"a.png\",\"mimetype\":\"image/png\",\"s3key\":\"$key\"}]" >"$TMPD/li2.out"
expect_grep "fake: a file staged for another tool is refused" '"successful": false.*not uploaded for this tool' "$TMPD/li2.out"
exec_li '["urn:li:image:C4D22AQ"]' >"$TMPD/li2.out"
expect_grep "fake: an image URN instead of a file is refused" 'a file is \{name, mimetype, s3key\}' "$TMPD/li2.out"
check "fake: no LinkedIn post made" "$(posts | wc -l)" 0
