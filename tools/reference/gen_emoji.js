#!/usr/bin/env node
// gen_emoji — writes src/core/gen/text_emoji.c: the emoji regular expression
// of twemoji-parser (the version twitter-text's parseTweet uses, pinned in
// package-lock.json) compiled to a small backtracking program over UTF-16
// code units, so that X's weighted length finds exactly the emoji
// twitter-text finds.
//
// The expression is finite: alternation, groups, optional parts, classes,
// literals and single-character negative lookaheads. Anything else stops
// the generator, so a new twemoji-parser cannot be compiled wrongly.
//
// Usage (from the repository root):
//   cd tools/reference && npm ci && node gen_emoji.js > ../../src/core/gen/text_emoji.c
'use strict';

const regex = require('twemoji-parser/dist/lib/regex').default;
const { ranges: toRanges, hex } = require('./ctable');
const version = require('twemoji-parser/package.json').version;

if (regex.flags !== 'g')
  throw new Error(`unexpected flags ${regex.flags}`);
const src = regex.source;
let at = 0;

function fail(what) {
  throw new Error(`${what} at ${at}: ${src.slice(at, at + 20)}`);
}

// One code unit: \uXXXX, another escape, or a literal.
function unit() {
  if (src[at] === '\\') {
    if (src[at + 1] === 'u') {
      const v = parseInt(src.slice(at + 2, at + 6), 16);
      at += 6;
      return v;
    }
    if (/[dDsSwWbBnrtfv0-9]/.test(src[at + 1]))
      fail('unsupported escape');
    at += 2;
    return src.charCodeAt(at - 1);
  }
  return src.charCodeAt(at++);
}

function parseClass() {
  const ranges = [];
  at++;
  if (src[at] === '^')
    fail('negated class');
  while (src[at] !== ']') {
    const lo = unit();
    let hi = lo;
    if (src[at] === '-' && src[at + 1] !== ']') {
      at++;
      hi = unit();
    }
    ranges.push([lo, hi]);
  }
  at++;
  return { t: 'class', ranges };
}

function parseAtom() {
  if (src[at] === '(') {
    at++;
    let kind = 'group';
    if (src.startsWith('?:', at))
      at += 2;
    else if (src.startsWith('?!', at)) {
      at += 2;
      kind = 'notnext';
    } else if (src[at] === '?')
      fail('unsupported group');
    const inner = parseAlt();
    if (src[at++] !== ')')
      fail('unclosed group');
    if (kind === 'notnext') {
      if (inner.t !== 'unit')
        fail('lookahead of more than one unit');
      return { t: 'notnext', u: inner.u };
    }
    return inner;
  }
  if (src[at] === '[')
    return parseClass();
  if ('.^$*+{}|)'.includes(src[at]))
    fail('unsupported syntax');
  return { t: 'unit', u: unit() };
}

function parseSeq() {
  const items = [];
  while (at < src.length && src[at] !== '|' && src[at] !== ')') {
    let a = parseAtom();
    if (src[at] === '?') {
      at++;
      if (src[at] === '?')
        fail('lazy quantifier');
      a = { t: 'opt', a };
    }
    if ('*+{'.includes(src[at]))
      fail('unbounded quantifier');
    items.push(a);
  }
  return items.length === 1 ? items[0] : { t: 'seq', items };
}

function parseAlt() {
  const alts = [parseSeq()];
  while (src[at] === '|') {
    at++;
    alts.push(parseSeq());
  }
  return alts.length === 1 ? alts[0] : { t: 'alt', alts };
}

const tree = parseAlt();
if (at !== src.length)
  fail('trailing input');

// Compilation: SPLIT tries a first, b second (JavaScript's priority).
const prog = [];
const ranges = [];
const emit = (op, a = 0, b = 0) => prog.push({ op, a, b }) - 1;

function compile(n) {
  switch (n.t) {
  case 'unit':
    emit('EMOJI_UNIT', n.u);
    break;
  case 'class':
    emit('EMOJI_CLASS', ranges.length, n.ranges.length);
    ranges.push(...n.ranges);
    break;
  case 'notnext':
    emit('EMOJI_NOTNEXT', n.u);
    break;
  case 'seq':
    n.items.forEach(compile);
    break;
  case 'opt': {
    const s = emit('EMOJI_SPLIT');
    prog[s].a = prog.length;
    compile(n.a);
    prog[s].b = prog.length;
    break;
  }
  case 'alt': {
    const jumps = [];
    n.alts.forEach((a, i) => {
      let s = -1;
      if (i < n.alts.length - 1) {
        s = emit('EMOJI_SPLIT');
        prog[s].a = prog.length;
      }
      compile(a);
      if (i < n.alts.length - 1) {
        jumps.push(emit('EMOJI_JMP'));
        prog[s].b = prog.length;
      }
    });
    for (const j of jumps)
      prog[j].a = prog.length;
    break;
  }
  default:
    throw new Error(n.t);
  }
}
compile(tree);
emit('EMOJI_MATCH');
if (prog.length > 65535 || ranges.length > 65535)
  throw new Error('program too large');

// The code units a match can start with, so that the scan skips the rest
// without running the program.
function firstUnits() {
  const units = new Set();
  const seen = new Set();
  const walk = (pc) => {
    if (seen.has(pc))
      return;
    seen.add(pc);
    const i = prog[pc];
    if (i.op === 'EMOJI_SPLIT') {
      walk(i.a);
      walk(i.b);
    } else if (i.op === 'EMOJI_JMP')
      walk(i.a);
    else if (i.op === 'EMOJI_UNIT')
      units.add(i.a);
    else if (i.op === 'EMOJI_CLASS') {
      for (const [lo, hi] of ranges.slice(i.a, i.a + i.b))
        for (let u = lo; u <= hi; u++)
          units.add(u);
    } else
      throw new Error(`${i.op} can start a match`);
  };
  walk(0);
  return toRanges([...units].sort((a, b) => a - b));
}
const first = firstUnits();

const out = [];
out.push(`/*
 * text_emoji — the emoji twitter-text weighs as 2: twemoji-parser ${version}'s
 * regular expression (Copyright Twitter Inc., MIT licence) compiled to a
 * backtracking program over UTF-16 code units by tools/reference/gen_emoji.js.
 * Do not edit.
 */
#include <stddef.h>
#include <stdint.h>

#include "core/text_int.h"

const struct emoji_inst text_emoji_prog[] = {`);
for (const i of prog)
  out.push(`\t{ ${i.op}, ${i.op === 'EMOJI_UNIT' || i.op === 'EMOJI_NOTNEXT' ?
    hex(i.a) : i.a}, ${i.b} },`);
out.push('};');
out.push(`const int text_emoji_prog_len = ${prog.length};`);
out.push('');
out.push('const uint16_t text_emoji_ranges[][2] = {');
for (const [lo, hi] of ranges)
  out.push(`\t{ ${hex(lo)}, ${hex(hi)} },`);
out.push('};');
out.push('');
out.push('const int32_t text_emoji_first[][2] = {');
for (const [lo, hi] of first)
  out.push(`\t{ ${hex(lo)}, ${hex(hi)} },`);
out.push('};');
out.push(`const int text_emoji_first_count = ${first.length};`);
process.stdout.write(out.join('\n') + '\n');
process.stderr.write(`${prog.length} instructions, ${ranges.length} ranges\n`);
