#!/usr/bin/env node
// gen_lengths — writes tests/data/lengths.jsonl: strings with the length
// each platform's reference implementation gives them.
//
//   x, x_valid   twitter-text (npm, v3 config): parseTweet().weightedLength/.valid
//   graphemes    Intl.Segmenter (grapheme) — Bluesky's 300-grapheme rule
//   mastodon     Mastodon's StatusLengthValidator restated below: URLs with
//                an http(s) scheme become 23 characters, "@user@domain"
//                becomes "@user", then grapheme clusters are counted
//   chars        code points (Threads, LinkedIn, Reddit)
//   bytes        UTF-8 bytes (Bluesky's second limit)
//   links        twitter-text extractUrls (with and without scheme): X's links
//   bluesky_links the link facets of @atproto/api's RichText detection (the
//                official client's), as [byteStart, byteEnd] pairs
//   mastodon_links what counts toward a Mastodon front's link cap: every URL
//                with a scheme, whatever its host — the URLs its length
//                rule replaces (twitter-text's domains) and every http(s)://
//                URL the official Bluesky detection finds besides, overlaps
//                once (fronts counts a cap conservatively)
//   hashtags     twitter-text extractHashtags
//
// Usage (from the repository root):
//   cd tools/reference && npm ci && node gen_lengths.js > ../../tests/data/lengths.jsonl
'use strict';

const twttr = require('twitter-text');
const { RichText } = require('@atproto/api');

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemes = (s) => [...segmenter.segment(s)].length;

// Mastodon: Account::MENTION_RE is
//   (?<![=/[:word:]])@((USERNAME_RE)(?:@[[:word:]]+([.-]+[[:word:]]+)*)?)
// with USERNAME_RE = /[a-z0-9_]+([.-]+[a-z0-9_]+)*/i, and Ruby's [[:word:]]
// is letters, marks, decimal digits and connector punctuation.
const WORD = '\\p{L}\\p{M}\\p{Nd}\\p{Pc}';
const MENTION_RE = new RegExp(
  `(?<![=/${WORD}])@([A-Za-z0-9_]+(?:[.-]+[A-Za-z0-9_]+)*)` +
  `((?:@[${WORD}]+(?:[.-]+[${WORD}]+)*)?)`, 'gu');
// twitter-text's end_mention_match: an at sign, a Latin accent or "://".
const END_MENTION = new RegExp(
  `^(?:[@\uFF20]|[${twttr.regexen.latinAccentChars.source}]|://)`);
const URL_PLACEHOLDER = 'x'.repeat(23);

function mastodonEntities(text) {
  const ents = twttr.extractUrlsWithIndices(text,
    { extractUrlsWithoutProtocol: false })
    .map((u) => ({ start: u.indices[0], end: u.indices[1], repl: URL_PLACEHOLDER }));
  for (const m of text.matchAll(MENTION_RE)) {
    const end = m.index + m[0].length;
    if (END_MENTION.test(text.slice(end)))
      continue;
    ents.push({ start: m.index, end, repl: '@' + m[1] });
  }
  // Extractor.remove_overlapping_entities: by start, earlier one kept.
  ents.sort((a, b) => a.start - b.start);
  const kept = [];
  for (const e of ents)
    if (kept.length === 0 || kept[kept.length - 1].end <= e.start)
      kept.push(e);
  return kept;
}

function blueskyLinks(text) {
  const rt = new RichText({ text });
  rt.detectFacetsWithoutResolution();
  return (rt.facets || [])
    .filter((f) => f.features.some((x) => x.$type === 'app.bsky.richtext.facet#link'))
    .map((f) => [f.index.byteStart, f.index.byteEnd]);
}

// Character spans [start, end) of the two sets, merged where they overlap.
function mastodonLinks(text) {
  const spans = twttr.extractUrlsWithIndices(text,
    { extractUrlsWithoutProtocol: false }).map((u) => u.indices);
  const buf = Buffer.from(text, 'utf8');
  for (const [b, e] of blueskyLinks(text)) {
    const s = buf.subarray(0, b).toString('utf8').length;
    const link = buf.subarray(b, e).toString('utf8');
    if (/^https?:\/\//i.test(link))
      spans.push([s, s + link.length]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  let n = 0, end = -1;
  for (const [s, e] of spans) {
    if (s >= end) n++;
    end = Math.max(end, e);
  }
  return n;
}

function mastodonLength(text) {
  let out = '';
  let at = 0;
  for (const e of mastodonEntities(text)) {
    out += text.slice(at, e.start) + e.repl;
    at = e.end;
  }
  return graphemes(out + text.slice(at));
}

function row(text) {
  const t = twttr.parseTweet(text);
  return {
    text,
    x: t.weightedLength,
    x_valid: t.valid,
    graphemes: graphemes(text),
    mastodon: mastodonLength(text),
    chars: [...text].length,
    bytes: Buffer.byteLength(text, 'utf8'),
    links: twttr.extractUrls(text).length,
    bluesky_links: blueskyLinks(text),
    mastodon_links: mastodonLinks(text),
    hashtags: twttr.extractHashtags(text).length,
  };
}

const cp = (...c) => String.fromCodePoint(...c);
const ZWJ = '\u200d';
const VS16 = '\ufe0f';
const TONES = [0x1f3fb, 0x1f3fc, 0x1f3fd, 0x1f3fe, 0x1f3ff];

const strings = [];
const add = (...s) => strings.push(...s);

// Plain text and the 280 boundary.
add('', ' ', 'hello', 'Hello, world!', 'a'.repeat(280), 'a'.repeat(281),
  'x'.repeat(300), 'x'.repeat(301), 'x'.repeat(500), 'x'.repeat(501),
  'tab\tand\nnewline', 'line one\r\nline two', '  leading and trailing  ',
  'quotes "double" and \'single\' and `back`', 'ASCII punctuation !?.,;:()[]{}');
// Weight-1 ranges and their edges.
add('\u10ff\u1100', '\u2000\u200d\u200e\u2010\u201f\u2020', '\u2032\u2037\u2038',
  'caf\u00e9 na\u00efve r\u00e9sum\u00e9', '\u00a9 2026 Acme\u00ae',
  'Stra\u00dfe \u0152uvre \u0131', 'Ελληνικά κείμενα', 'Русский текст здесь',
  'עברית עם ניקוד: שָׁלוֹם', 'العربية: مَرْحَبًا', 'ქართული ენა', 'Հայերեն');
// CJK and other heavy scripts.
add('中文', '中文字符测试', '日本語のテキスト', 'ひらがなとカタカナ', 'ﾊﾝｶｸｶﾀｶﾅ',
  '한국어 텍스트', '한글', '\u1112\u1161\u11ab\u1100\u1173\u11af', '漢字'.repeat(140),
  '漢字'.repeat(70) + 'a', '中'.repeat(141), 'ไทย ภาษาไทย', 'हिन्दी भाषा',
  'क्षत्रिय', 'தமிழ் மொழி', 'ᠮᠣᠩᠭᠣᠯ', 'ᚠᚢᚦᚨᚱᚲ', '𠜎𠜱𠝹𠱓', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'Mixed 中文 and English', 'Русский and 日本語 and English', 'emoji 😀 and 中文');
// Combining marks and normalisation.
add('e\u0301', 'cafe\u0301', 'n\u0303o', 'A\u030a', '\u1e9b\u0323',
  'a\u0301\u0302\u0303\u0304', 'Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319\u0324\u031e\u0349\u035a\u032f\u031e\u0320\u034d',
  '\u0915\u094d\u0937', '\u0e01\u0e33', 'o\u0308\u0304', '\u212b', '\u2126',
  '\ufb01 ligature', 'x\u20dd', 'a\u200db', 'a\u200cb');
// Emoji: single, presentation selectors, text-style.
add('😀', '👍', '❤', '❤️', '☺', '☺️', '✌', '✌️', '✌︎', '©', '©️', '®', '®️',
  '™', '™️', '‼', '‼️', '↔', '↔️', '⌚', '☕', '🀄', '🃏', '🅰', '🅰️', '🈂️',
  'text then 😀', '😀😀😀', '😀'.repeat(140), '😀'.repeat(141), '\ufe0f');
// Skin tones.
for (const base of [0x1f44d, 0x1f44b, 0x270c, 0x1f9d1, 0x1f469])
  for (const t of TONES)
    add(cp(base, t));
add(cp(0x1f3fb), 'tone ' + cp(0x1f3ff) + ' alone', cp(0x270c, 0x1f3ff, 0xfe0f));
// ZWJ sequences.
add(cp(0x1f468) + ZWJ + cp(0x1f469) + ZWJ + cp(0x1f467),
  cp(0x1f468) + ZWJ + cp(0x1f469) + ZWJ + cp(0x1f467) + ZWJ + cp(0x1f466),
  cp(0x1f469) + ZWJ + cp(0x2764) + VS16 + ZWJ + cp(0x1f468),
  cp(0x1f469) + ZWJ + cp(0x2764) + VS16 + ZWJ + cp(0x1f48b) + ZWJ + cp(0x1f468),
  cp(0x1f468, 0x1f3fd) + ZWJ + cp(0x1f4bb),
  cp(0x1f469) + ZWJ + cp(0x1f52c),
  cp(0x1f469, 0x1f3fe) + ZWJ + cp(0x2695) + VS16,
  cp(0x1f3f3) + VS16 + ZWJ + cp(0x1f308),
  cp(0x1f3f4) + ZWJ + cp(0x2620) + VS16,
  cp(0x1f441) + VS16 + ZWJ + cp(0x1f5e8) + VS16,
  cp(0x1f46e) + ZWJ + cp(0x2640) + VS16,
  cp(0x1f3c3, 0x1f3fb) + ZWJ + cp(0x2642) + VS16,
  cp(0x1f468) + ZWJ + cp(0x1f9b0),
  cp(0x1f9d1) + ZWJ + cp(0x1f4bb),
  cp(0x1f9d1) + ZWJ + cp(0x1f91d) + ZWJ + cp(0x1f9d1),
  cp(0x1f3f3) + VS16 + ZWJ + cp(0x26a7) + VS16,
  cp(0x2764) + VS16 + ZWJ + cp(0x1f525),
  cp(0x1f415) + ZWJ + cp(0x1f9ba),
  cp(0x1f43b) + ZWJ + cp(0x2744) + VS16,
  'family ' + cp(0x1f468) + ZWJ + cp(0x1f469) + ZWJ + cp(0x1f467) + ' photo');
// U+FE0F where a variation sequence exists and where it does not.
add('😀️', '⌚️', '☕️', '⚡️', '⭐️', '✅️', '✨️', '❌️', '🈂️', '🈯️', '🆗️', '🀄️',
  '♾️', '👍️', '™‍©', '❤‍🔥', 'ok ✅️ done');
// ZWJ chains that are not emoji sequences: twitter-text weighs their parts.
add(cp(0x2764) + VS16 + ZWJ + cp(0x2728), cp(0x2728) + ZWJ + cp(0x1f3f3) + VS16 + ZWJ + cp(0x1f308),
  cp(0x1f44d, 0x1f3fd) + ZWJ + cp(0x2764) + VS16, cp(0x2764) + ZWJ + cp(0x2728),
  cp(0x1f600) + ZWJ + cp(0x1f600), cp(0x1f44d) + ZWJ, ZWJ + cp(0x1f44d), 'a' + ZWJ + cp(0x1f600),
  cp(0x263a) + VS16 + ZWJ + cp(0x2764) + VS16, cp(0x1f468) + ZWJ + ZWJ + cp(0x1f469),
  cp(0x1f1fa, 0x1f1f8) + ZWJ + cp(0x1f1ec, 0x1f1e7), '1' + VS16 + '\u20e3' + ZWJ + cp(0x1f600),
  cp(0x1f3f3) + VS16 + ZWJ + cp(0x1f308) + ZWJ + cp(0x2728), 'x ' + cp(0x2764) + VS16 + ZWJ + cp(0x2728) + ' y');
// Conjuncts (rule GB9c) in the scripts that join them.
add('\u0995\u09cd\u09b7', '\u0a95\u0acd\u0ab7', '\u0b15\u0b4d\u0b37', '\u0c15\u0c4d\u0c37',
  '\u0d15\u0d4d\u0d37', '\u1000\u1039\u1001', '\u1780\u17d2\u1780', '\u0915\u094d\u200d\u0937',
  '\u0915\u093c\u094d\u0937', '\u0915\u094d\u0937\u094d\u092e', '\u0915\u094d\u094d\u0937',
  '\u0915\u0941\u094d\u0937', '\u0915\u094d\u200c\u0937', '\u0915\u094d \u0937', 'a\u094d\u0937',
  '\u0930\u094d\u0915', '\u0915\u094d\u0995', 'स्वतन्त्रता', 'বাংলা ভাষা', 'ગુજરાતી', 'తెలుగు', 'മലയാളം', 'ଓଡ଼ିଆ');
// Combining marks newer than utf8proc's data (Unicode 16 and 17), after a
// letter, a control and each other.
add('a\u1acf', 'e\u0897x', 'a\u1ae0\u1ae1', '\n\u1acf', '\u1acf', cp(0x10d69) + 'x' + cp(0x10d6a),
  '\u0915\u094d\u1acf\u0937', 'a' + cp(0x113b8) + 'b');
// Newer emoji (after twitter-text's bundled emoji list).
add(cp(0x1f971), cp(0x1fae0), cp(0x1fa77), cp(0x1faf6, 0x1f3fd), cp(0x26a7) + VS16);
// Flags and tag sequences.
add('🇺🇸', '🇬🇧', '🇯🇵', '🇩🇪🇫🇷', '🇺🇸🇬🇧🇯🇵', '🇺', 'flag 🇨🇦 here',
  cp(0x1f3f4, 0xe0067, 0xe0062, 0xe0065, 0xe006e, 0xe0067, 0xe007f),
  cp(0x1f3f4, 0xe0067, 0xe0062, 0xe0073, 0xe0063, 0xe0074, 0xe007f));
// Keycaps.
for (const k of '0123456789#*')
  add(k + VS16 + '\u20e3');
add('1\u20e3', '#' + VS16, '10' + VS16 + '\u20e3', 'call 1️⃣2️⃣3️⃣');
// URLs with a scheme.
add('http://example.com', 'https://example.com', 'https://example.com/',
  'Read https://example.com/blog/2026/launch?utm_source=x#top now',
  'HTTPS://EXAMPLE.COM/PATH', 'https://t.co/abc123', 'https://t.co/abc123/extra',
  'https://en.wikipedia.org/wiki/Caf%C3%A9_(disambiguation)',
  'https://example.com/path_(with)_parens', '(https://example.com)',
  'https://example.com.', 'https://example.com,', 'https://example.com!',
  'https://example.com:8080/x', 'https://sub.domain.example.co.uk/p',
  'https://例え.jp/パス', 'http://ああ.com', 'https://xn--fsq.com/',
  'https://example.com/' + 'a'.repeat(300),
  'two https://a.com and https://b.org links', 'http://localhost/x',
  'https://example.invalidtld/x', 'ftp://example.com/file',
  'https://example.com/@alice', 'https://example.com/#/route?x=1',
  'https://github.com/owner/repo/pull/123#issuecomment-1',
  'see:https://example.com', 'https://example.com/😀', 'https://ex_ample.com');
// URLs without a scheme.
add('example.com', 'www.example.com', 'visit example.com today',
  'example.com/path?q=1', 'example.co.uk', 'example.co', 'example.io/x',
  'foo.bar', 'file.txt', 'index.html', 'config.json', 'a.b.c.d',
  'e.g. this', 'i.e.', 'version 1.2.3', 'twitter.com/jack', 'x.com',
  'bit.ly/abc', 'go to docs.python.org/3/', 'mail me at bob@example.com',
  '-example.com', '/example.com', '.example.com', '_example.com',
  'example.com:8080', 'example.com:8080/x', 'EXAMPLE.COM', 'example.COM/Path',
  '例え.jp', 'café.fr', 'münchen.de', 'русский.рф', 'пример.рф',
  'sub.example.com.', 'example.com…', 'example.com and example.org',
  'example.museum', 'example.xn--p1ai', 'example.中国', 'example.みんな',
  'www.example.com/path/to/page.html');
// Links on hosts without an IANA TLD (reserved names, internal hosts), in
// parentheses, before punctuation, with case and IDNs, where the platforms'
// linkers disagree.
add('https://a.example', 'two https://a.example and https://b.example',
  'https://a.example https://a.example', 'http://x.test/', 'https://foo.invalid/a',
  'http://localhost:8080/', 'https://intranet/wiki', 'https://build01.corp/x',
  'a.example', 'see a.example and b.test', 'HTTPS://a.example', 'Https://example.com',
  'HTTP://EXAMPLE.COM/x', 'https://münchen.de', 'https://例え.テスト',
  'https://xn--mnchen-3ya.de/', 'https://ουτοπία.δπθ.gr', 'müller.example.com',
  '(https://a.example)', '(https://a.example).', '(see https://example.com/x)',
  'https://en.wikipedia.org/wiki/Foo_(bar)', '(https://example.com/path_(with)_parens)',
  'https://a.example.', 'https://a.example!', 'https://a.example?', 'https://a.example,',
  'https://a.example;', 'https://a.example:', 'https://a.example...', 'https://a.example)',
  'https://a.example/x),', 'Go to example.com.', 'example.com!', '"https://example.com"',
  '[https://example.com]', '<https://example.com>', 'x(https://a.example', 'https://a.example(b)',
  'httpbin.org', 'http.example', 'httpx.invalid/y',
  'ftp://a.example', 'https://a.example\nhttps://b.example', 'a.b.example.com',
  'my-site.com', 'https://my-site.example', 'https://', 'https://.', 'http://x',
  'mailto:bob@example.com', 'https://a.example/path?q=1#frag');
// Mentions.
add('@alice', 'hi @alice!', '@alice@mastodon.social', 'hi @alice@mastodon.social!',
  'cc @bob@fosstodon.org and @carol@hachyderm.io',
  '@alice@mastodon.social https://example.com/post',
  '@a_b.c-d@sub.example.org', '@alice@', 'email alice@example.com',
  '=@alice', 'x/@alice@host.org', '@alice@host.org/', '@alice@mastodon.social.',
  '@user@日本.jp', '@élise', '@alice@bob@carol.org', '＠alice',
  '@alice://example', '@@alice', 'hello@alice', 'a @b', '@' + 'u'.repeat(30) + '@example.com');
// Hashtags.
add('#tag', '#launch day', 'a #hashtag here', '#one #two #three', '#123',
  '#1st', '#日本語', '#한국어', '#Ünïcödé', '#tag#tag', 'C# and F#', '#',
  '＃全角', '#tag_with_underscore', '#tag-with-dash', '#tag.', '😀#tag',
  '✌️#tag', 'a&#tag', 'url https://example.com/#anchor', '#tag://x',
  '#cafe\u0301', '#🙂', '#hash_😀', '#' + 'a'.repeat(50), '##double',
  '#Ελληνικά', '#العربية', '#עברית', '#ไทย');
// Mixed posts of realistic shape.
add('🚀 We launched! Read more at https://acme.example/blog #launch #startup',
  'Big news 🎉🎉 our app is live in 日本 🇯🇵 — details: acme.jp/news #リリース',
  'Thanks @alice@mastodon.social and @bob for the review 🙏🏽',
  'Pricing update: €9/month → €7/month. See https://acme.example/pricing',
  'Feedback welcome 👩🏽‍💻 at feedback@acme.example or #acmefeedback',
  'Line1\nLine2\nhttps://example.com\n#tag',
  '"Quote" — said someone… https://example.com/a-b_c?d=e&f=g',
  'Ünïcödé everywhere: 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 and 🇩🇪 and क्षत्रिय',
  'Invalid char \ufeff inside', 'Invalid \ufffe too',
  'x'.repeat(257) + ' https://example.com', 'x'.repeat(258) + ' https://example.com',
  '😀'.repeat(139) + 'ab', '中'.repeat(139) + '😀',
  'https://example.com '.repeat(12).trim(),
  'Release notes: v2.0.1 fixes #42 and #bug-fix; see github.com/acme/app/releases',
  'Try it: acme.app 🚀🚀🚀 #buildinpublic #indiehackers',
  'Dinner 🍣🍜🍱 in 東京 with @chef@cooking.social #foodie',
  'Mañana en Málaga: entradas en https://entradas.example.es #evento',
  'Привет всем! Новая версия на acme.ru #релиз');

// Seeded random mixes of the pieces entities are made of, where the
// extractors' edge cases meet (a fixed seed keeps the table stable).
let seed = 12345;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const PIECES = ['a', 'b', 'x', 'co', 'com', 'org', 'io', 'jp', 'uk', 'www',
  'example', 't', 'http://', 'https://', 'HTTP://', '.', '.', '/', '/', '?',
  '=', '&', '#', '#', '@', '@', 'alice', '-', '_', ':', '8080', '(', ')', '[',
  ']', ',', '!', ' ', ' ', ' ', '\n', 'é', 'ü', 'ñ', '日本', '中文', '한국', 'рф',
  'пример', '😀', '👍🏽', '🇺🇸', '❤️', '1️⃣', '©', '™', ZWJ, '\u0301', VS16,
  'xn--', 'bit.ly', 't.co/', 'abc123', '~', '%20', "'", '"', '$', '＃', '＠',
  '…', '—', '\u3002', 'mastodon.social'];
for (let i = 0; i < 400; i++) {
  let s = '';
  const n = 1 + Math.floor(rnd() * 12);
  for (let k = 0; k < n; k++)
    s += PIECES[Math.floor(rnd() * PIECES.length)];
  add(s);
}

process.stdout.write(strings.map((s) => JSON.stringify(row(s))).join('\n') + '\n');
process.stderr.write(`${strings.length} rows\n`);
