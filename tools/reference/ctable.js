// ctable — what the generators of C tables share: sorted code points as
// ranges, and numbers as C hex literals.
'use strict';

// [[lo, hi], ...] of a sorted list of code points.
function ranges(list) {
  const out = [];
  for (const c of list) {
    const last = out[out.length - 1];
    if (last && last[1] === c - 1)
      last[1] = c;
    else
      out.push([c, c]);
  }
  return out;
}

const hex = (v) => '0x' + v.toString(16).padStart(4, '0');

module.exports = { ranges, hex };
