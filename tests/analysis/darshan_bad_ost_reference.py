#!/usr/bin/env python3
"""Independent check of `tokio darshan-bad-ost`, run once by hand to get
the expected numbers in tests/analysis/test_darshan_bad_ost.c and
tests/cli/test_darshan_bad_ost.c (not part of the test suite).

Usage: for each LOG, `tokio cache-darshan --base LOG.darshan > LOG.json`,
then `darshan_bad_ost_reference.py LOG [LOG...]`.

Follows the reference's tokio/cli/darshan_bad_ost.py: per file,
sum(BYTES_READ + BYTES_WRITTEN) / max(F_WRITE_TIME + F_READ_TIME +
F_META_TIME) over its POSIX ranks; its OSTs from the LUSTRE component
layout (COMP1_OST_ID_<k>: every pack log has one component); share
1/len(OSTs); then Pearson r and the two-sided Student t p-value
I_{1-r^2}((n-2)/2, 1/2) in 60-digit arithmetic (mpmath).
"""
import json
import sys

import mpmath

mpmath.mp.dps = 60
files = {}
order = []
for log in sys.argv[1:]:
    c = json.load(open(log + '.json')).get('counters', {})
    if 'posix' not in c or 'lustre' not in c:
        print('skip', log)
        continue
    for name, ranks in c['posix'].items():
        if name.startswith('_') or name not in c['lustre']:
            continue
        mx, sb = 0.0, 0.0
        for cd in ranks.values():
            t = cd['F_WRITE_TIME'] + cd['F_READ_TIME'] + cd['F_META_TIME']
            mx = max(mx, t)
            sb += cd['BYTES_READ'] + cd['BYTES_WRITTEN']
        osts = set()
        for cd in c['lustre'][name].values():
            assert cd['NUM_COMPONENTS'] == 1
            for k in range(cd['COMP1_STRIPE_COUNT']):
                osts.add(cd['COMP1_OST_ID_%d' % k])
        key = log + '@' + name
        if key in files:
            files[key][0] = max(files[key][0], sb / mx)
            files[key][1] |= osts
        else:
            files[key] = [sb / mx, osts]
            order.append(key)
perf = [mpmath.mpf(files[k][0]) for k in order]
n = len(perf)
print('n files', n)
res = []
if n > 1 and len(set(perf)) > 1:
    for o in sorted(set().union(*[files[k][1] for k in order])):
        x = [mpmath.mpf(1.0 / len(files[k][1])) if o in files[k][1]
             else mpmath.mpf(0) for k in order]
        if len(set(x)) == 1:
            continue
        mx, my = sum(x) / n, sum(perf) / n
        sxy = sum((a - mx) * (b - my) for a, b in zip(x, perf))
        sxx = sum((a - mx) ** 2 for a in x)
        syy = sum((b - my) ** 2 for b in perf)
        r = sxy / mpmath.sqrt(sxx * syy)
        p = (mpmath.betainc(mpmath.mpf(n - 2) / 2, mpmath.mpf(1) / 2, 0,
                            1 - r * r, regularized=True)
             if n > 2 else mpmath.mpf(1))
        res.append((o, r, p))
for o, r, p in sorted(res, key=lambda t: t[1]):
    print('    { %d, %s, %s },' % (o, mpmath.nstr(r, 20), mpmath.nstr(p, 20)))
