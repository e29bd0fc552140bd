#!/usr/bin/env python3
"""fg_frames.py: check a perfan flame graph SVG against the folded stacks it
was drawn from, with a model of its own (no code shared with perfan).

  fg_frames.py FOLDED SVG [--minwidth PX|PCT%] [--width PX] [--reverse]
                          [--flamechart]

Every frame of the SVG must have the name, depth, offset and width (in
samples) the folded input implies, and no frame may be missing or extra:
children sorted by name (C byte order), laid out left to right from their
parent's offset; children narrower than the minimum width merged into one
"(other)" frame after the others; "all" at depth 0. With --flamechart the
lines are taken in input order and adjacent equal frames merged instead.
The rect of each frame must sit where its offset and width put it.

Lines with two counts ("STACK BEFORE AFTER", as difffolded.pl writes them)
make a differential graph: the frames of either side, each with its
before offset and width too (data-bo, data-bw), laid out in the before
weight in the same order; a frame is merged into "(other)" only when it is
narrow on both sides, each against its own total.
Exits 1 with the first differences on a mismatch.
"""
import argparse
import sys
import xml.etree.ElementTree as ET

XPAD = 10.0
KINDS = {'k': 1, 'j': 3, 'i': 4}  # perfan_frame_kind of _[k], _[j], _[i]


def valid_utf8_len(b, i):
    """Length of the valid UTF-8 sequence at b[i], or 0."""
    c = b[i]
    if c < 0x80:
        return 1
    if c & 0xe0 == 0xc0:
        n, lo, cp = 2, 0x80, c & 0x1f
    elif c & 0xf0 == 0xe0:
        n, lo, cp = 3, 0x800, c & 0x0f
    elif c & 0xf8 == 0xf0:
        n, lo, cp = 4, 0x10000, c & 0x07
    else:
        return 0
    if i + n > len(b):
        return 0
    for k in range(1, n):
        if b[i + k] & 0xc0 != 0x80:
            return 0
        cp = cp << 6 | (b[i + k] & 0x3f)
    if cp < lo or cp > 0x10ffff or 0xd800 <= cp <= 0xdfff or cp in (0xfffe, 0xffff):
        return 0
    return n


def xml_text(b):
    """The text an XML parser reads back for name bytes B: what XML cannot
    hold (controls but tab, broken UTF-8) is U+FFFD, byte by byte."""
    out, i = [], 0
    while i < len(b):
        n = valid_utf8_len(b, i)
        if not n or (b[i] < 0x20 and b[i] != 0x09):
            out.append('\ufffd')
            i += 1
            continue
        out.append(b[i:i + n].decode('utf-8'))
        i += n
    return ''.join(out)


def count_at_end(line):
    """(rest, count) of LINE ending in a space or tab and digits, or None."""
    d = len(line)
    while d and 0x30 <= line[d - 1] <= 0x39:
        d -= 1
    if d == len(line) or d == 0 or line[d - 1] not in (0x20, 0x09):
        return None
    return line[:d - 1], int(line[d:])


def read_folded(path):
    """[(frames, count, before)] in input order; frames are (name bytes,
    kind); before is None on a line with one count."""
    stacks = []
    with open(path, 'rb') as f:
        for raw in f:
            line = raw.rstrip(b'\n').rstrip(b' \t\r\v\f')
            if not line:
                continue
            got = count_at_end(line)
            if not got:
                sys.exit(f'{path}: not a folded line: {raw!r}')
            stack, count = got
            before = None
            two = count_at_end(stack)
            if two and two[0]:
                stack, before = two
            frames = []
            for t in stack.split(b';'):
                kind = 0
                if len(t) > 4 and t[-4:-2] == b'_[' and t[-1:] == b']' and \
                        chr(t[-2]) in KINDS:
                    kind = KINDS[chr(t[-2])]
                    t = t[:-4]
                frames.append((t, kind))
            stacks.append((frames, count, before))
    return stacks


def layout_trie(stacks, thr):
    root = {'w': 0, 'kids': {}}
    for frames, count, _ in stacks:
        node = root
        node['w'] += count
        for fr in frames:
            node = node['kids'].setdefault(fr, {'w': 0, 'kids': {}})
            node['w'] += count
    out = [('all', 0, 0, root['w'])]
    todo = [(root, 0, 0)]
    while todo:
        node, off, depth = todo.pop()
        other = 0
        for key in sorted(node['kids']):  # (name bytes, kind): C order
            kid = node['kids'][key]
            if kid['w'] == 0:
                continue
            if kid['w'] < thr:
                other += kid['w']
                continue
            out.append((xml_text(key[0]), depth + 1, off, kid['w']))
            todo.append((kid, off, depth + 1))
            off += kid['w']
        if other:
            out.append(('(other)', depth + 1, off, other))
    return out


def layout_union(stacks, thr, bthr):
    """Frames of either side of two-count STACKS: (name, depth, offset,
    width, before offset, before width), each side in its own weight."""
    root = {'w': 0, 'b': 0, 'kids': {}}
    for frames, count, before in stacks:
        node = root
        for fr in [None] + frames:
            if fr is not None:
                node = node['kids'].setdefault(fr, {'w': 0, 'b': 0, 'kids': {}})
            node['w'] += count
            node['b'] += before or 0
    total, btotal = root['w'], root['b']
    out = [('all', 0, 0, total, 0, btotal)]
    todo = [(root, 0, 0, 0)]
    while todo:
        node, off, boff, depth = todo.pop()
        other = bother = 0
        for key in sorted(node['kids']):
            kid = node['kids'][key]
            if kid['w'] == 0 and kid['b'] == 0:
                continue
            # a side without weight makes nothing wide
            if (kid['w'] < thr or not total) and (kid['b'] < bthr or not btotal):
                other += kid['w']
                bother += kid['b']
                continue
            out.append((xml_text(key[0]), depth + 1, off, kid['w'], boff, kid['b']))
            todo.append((kid, off, boff, depth + 1))
            off += kid['w']
            boff += kid['b']
        if other or bother:
            out.append(('(other)', depth + 1, off, other, boff, bother))
    return out


def layout_chart(stacks, thr):
    """Runs of equal frames over adjacent lines, in input order."""
    runs = [{'name': 'all', 'd': 0, 'o': 0, 'w': 0, 'kids': []}]
    openr, cursor = [], 0
    for frames, count, _ in stacks:
        if count == 0:
            continue
        k = 0
        while k < len(openr) and k < len(frames) and openr[k]['key'] == frames[k]:
            k += 1
        for r in openr[:k]:
            r['w'] += count
        openr = openr[:k]
        for d in range(k, len(frames)):
            r = {'key': frames[d], 'name': xml_text(frames[d][0]), 'd': d + 1,
                 'o': cursor, 'w': count, 'kids': []}
            (openr[d - 1] if d else runs[0])['kids'].append(r)
            openr.append(r)
        runs[0]['w'] += count
        cursor += count
    out = []

    def walk(r):
        out.append((r['name'], r['d'], r['o'], r['w']))
        other, end = None, r['o']
        for kid in r['kids']:
            narrow = kid['w'] < thr
            gap_narrow = kid['o'] - end < thr
            if other and not (narrow and gap_narrow):
                out.append(('(other)', other[0], other[1], other[2]))
                other = None
            end = kid['o'] + kid['w']
            if narrow:
                if not other:
                    other = [kid['d'], kid['o'], 0]
                other[2] = end - other[1]
                continue
            walk(kid)
        if other:
            out.append(('(other)', other[0], other[1], other[2]))
    walk(runs[0])
    return out


def read_svg(path):
    tree = ET.parse(path)
    ns = '{http://www.w3.org/2000/svg}'
    root = tree.getroot()
    frames = root.find(f'.//{ns}g[@id="frames"]')
    if frames is None:
        sys.exit(f'{path}: no <g id="frames">')
    width = float(root.get('width'))
    got = []
    for g in frames.findall(f'{ns}g'):
        title = g.find(f'{ns}title').text or ''
        rect = g.find(f'{ns}rect')
        got.append((title, int(g.get('data-d')), int(g.get('data-o')),
                    int(g.get('data-w')), float(rect.get('x')),
                    float(rect.get('width')),
                    int(g.get('data-bo', -1)), int(g.get('data-bw', -1))))
    return width, got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('folded')
    ap.add_argument('svg')
    ap.add_argument('--minwidth', default='0.1')
    ap.add_argument('--width', type=float, default=1200)
    ap.add_argument('--reverse', action='store_true')
    ap.add_argument('--flamechart', action='store_true')
    a = ap.parse_args()
    stacks = read_folded(a.folded)
    if a.reverse:
        stacks = [(list(reversed(f)), c, b) for f, c, b in stacks]
    diff = any(b is not None for _, _, b in stacks)

    def threshold(total):
        if a.minwidth.endswith('%'):
            return float(a.minwidth[:-1]) / 100 * total
        return float(a.minwidth) / (a.width - 2 * XPAD) * total
    total = sum(c for _, c, _ in stacks)
    thr = threshold(total)
    if diff:
        want = layout_union(stacks, thr, threshold(sum(b or 0 for _, _, b in stacks)))
    elif a.flamechart:
        want = layout_chart(stacks, thr)
    else:
        want = layout_trie(stacks, thr)
    width, got = read_svg(a.svg)
    if width != a.width:
        sys.exit(f'{a.svg}: width {width}, expected {a.width}')
    scale = (width - 2 * XPAD) / total if total else 0
    bad = 0
    for name, d, o, w, x, rw, _, _ in got:
        if abs(x - (XPAD + o * scale)) > 0.051 or abs(rw - w * scale) > 0.051:
            print(f'FAIL: {name!r} at offset {o} width {w}: rect x={x} '
                  f'width={rw}, expected {XPAD + o * scale:.2f} {w * scale:.2f}')
            bad += 1
            if bad > 5:
                break
    if diff:
        g = sorted((n, d, o, w, bo, bw) for n, d, o, w, _, _, bo, bw in got)
    else:
        g = sorted((n, d, o, w) for n, d, o, w, _, _, _, _ in got)
    e = sorted(want)
    if g != e:
        gs, es = set(g), set(e)
        print(f'FAIL: {a.svg}: {len(g)} frames, expected {len(e)}')
        for x in sorted(es - gs)[:5]:
            print('  missing', x)
        for x in sorted(gs - es)[:5]:
            print('  extra  ', x)
        bad += 1
    if bad:
        sys.exit(1)
    others = sum(1 for f in e if f[0] == '(other)')
    print(f'ok: {a.svg}: {len(g)} frames ({others} "(other)")'
          f'{", both sides" if diff else ""} as {a.folded} implies')


if __name__ == '__main__':
    main()
