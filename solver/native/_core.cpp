// The compiled search core of take6's exact solver (module solver.native._core).
//
// A restatement, for speed, of solver/search.py (the readable reference): the same
// simultaneous-move alpha-beta with serialised bounds, the same placement rule as
// solver/kernel.py (itself checked against take6.placement.place), the same canonical key, and
// exact rational arithmetic throughout (int64 numerator/denominator with 128-bit intermediates,
// GMP rationals for the values that do not fit: denominators past 2^100 occur at k = 7). Every
// number that is
// a fact of the rules (the bull-head table, the row capacity, Profi's settings) comes in from
// Python at construction: nothing of the rules is restated here but the placement rule.
//
// Differences from the Python search, none of which changes a value:
// * the transposition table is one open-addressing array of 4-entry buckets sized from a memory
//   budget, with depth-preferred replacement (no whole-depth eviction); it holds bounds only
//   (strategies are re-derived by expanding a position once more with a warm table);
// * a stored bound whose exact fraction does not fit 32 bits is widened outward to an integer
//   (still a proven bound);
// * the key is a 128-bit hash of the canonical key's words (64 bits select the bucket, 64 are
//   compared): two different positions would have to agree on all of them to be confused.
// * with threads > 1 the cells of the root's stage game (and of the eldest brothers' below it)
//   are shared out among the threads over the one table; each bucket has a spin lock, so
//   entries are never torn. A thread left without a task helps inside the others' (the loops
//   of their positions of NEST_DEPTH+ cards, offered while a thread waits: struct Job);
//
// Below the search, the best reply to a fixed bot (BotReply, Python type Reply): the expectimax of
// solver/botgap.py restated, with the three built-in bots' policies (take6.play.bots).

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <sys/mman.h>
#include <exception>
#include <stdexcept>
#include <string>
#include <functional>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <memory>
#include <numeric>
#include <vector>

#include <gmpxx.h>

namespace {

using i64 = int64_t;
using u64 = uint64_t;
using i128 = __int128;
using u128 = unsigned __int128;


// ---------------------------------------------------------------------------------------------
// Exact rationals: int64 numerator/denominator with 128-bit intermediates, and GMP (mpq) for
// the rare value that does not fit. A value is always held in its smallest form (a GMP value
// never fits the small form), so equality is a field comparison.

const i64 LIM = (i64(1) << 62);

struct Q {
    i64 n = 0;
    i64 d = 1;                             // > 0, gcd(n, d) == 1 (small form)
    std::shared_ptr<const mpq_class> b;  // the value when it does not fit the small form
    Q() = default;
    Q(i64 v) : n(v), d(1) {}  // NOLINT: implicit from integers on purpose
};

inline u128 ugcd(u128 a, u128 b) {
    while (b) {
        u128 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

// A value as GMP's, without copying one that is already GMP's (a long value has thousands of
// digits from k = 9 on, and the windows of a solve by cells carry them through whole searches).
struct AsBig {
    mpq_class own;
    const mpq_class* p;
    explicit AsBig(const Q& a) : p(a.b.get()) {
        if (p) return;
        mpz_set_si(own.get_num_mpz_t(), long(a.n));
        mpz_set_si(own.get_den_mpz_t(), long(a.d));
        p = &own;
    }
    mpq_srcptr get() const { return p->get_mpq_t(); }
};

inline Q from_big(mpq_class&& r) {
    Q q;
    if (mpz_fits_slong_p(r.get_num_mpz_t()) && mpz_fits_slong_p(r.get_den_mpz_t())) {
        long n = mpz_get_si(r.get_num_mpz_t()), d = mpz_get_si(r.get_den_mpz_t());
        if (n < LIM && n > -LIM && d < LIM) {
            q.n = n;
            q.d = d;
            return q;
        }
    }
    q.n = 0;
    q.d = 1;
    q.b = std::make_shared<const mpq_class>(std::move(r));
    return q;
}

// The result of a GMP operation on two values: r = f(a, b).
template <class F>
inline Q big_op(const Q& a, const Q& b, F f) {
    AsBig x(a), y(b);
    mpq_class r;
    f(r.get_mpq_t(), x.get(), y.get());
    return from_big(std::move(r));
}

// The small form of n/d if it fits.
inline bool small_q(i128 n, i128 d, Q& out) {
    if (d < 0) {
        n = -n;
        d = -d;
    }
    if (n == 0) {
        out = Q(0);
        return true;
    }
    if (d == 1) {
        if (n >= LIM || n <= -LIM) return false;
        out.n = i64(n);
        out.d = 1;
        out.b.reset();
        return true;
    }
    u128 an = n < 0 ? u128(-n) : u128(n);
    if ((an >> 64) == 0 && (u128(d) >> 64) == 0) {
        u64 g = std::gcd(u64(an), u64(d));  // 64-bit division is several times cheaper
        if (g > 1) {
            n /= i128(g);
            d /= i128(g);
        }
    } else {
        u128 g = ugcd(an, u128(d));
        if (g > 1) {
            n /= i128(g);
            d /= i128(g);
        }
    }
    if (n >= LIM || n <= -LIM || d >= LIM) return false;
    out.n = i64(n);
    out.d = i64(d);
    out.b.reset();
    return true;
}

inline Q operator+(const Q& a, const Q& b) {
    if (!a.b && !b.b) {
        Q r;
        if (a.d == 1 && b.d == 1) {
            i64 s = a.n + b.n;
            if (s < LIM && s > -LIM) return Q(s);
        } else if (a.d == 1 || b.d == 1) {
            // n/d + m is already in lowest terms: gcd(n + m d, d) = gcd(n, d) = 1
            const Q& f = a.d == 1 ? b : a;
            i64 m = a.d == 1 ? a.n : b.n;
            i128 num = i128(f.n) + i128(m) * f.d;
            if (num < LIM && num > -LIM) {
                r.n = i64(num);
                r.d = f.d;
                return r;
            }
        } else if (small_q(i128(a.n) * b.d + i128(b.n) * a.d, i128(a.d) * b.d, r)) {
            return r;
        }
    }
    return big_op(a, b, mpq_add);
}
inline Q operator-(const Q& a) {
    if (a.b) return from_big(mpq_class(-*a.b));
    Q r = a;
    r.n = -r.n;
    return r;
}
inline Q operator-(const Q& a, const Q& b) {
    if (!a.b && !b.b) return a + (-b);
    return big_op(a, b, mpq_sub);
}
inline Q operator*(const Q& a, const Q& b) {
    if (!a.b && !b.b) {
        Q r;
        if (small_q(i128(a.n) * b.n, i128(a.d) * b.d, r)) return r;
    }
    return big_op(a, b, mpq_mul);
}
inline Q operator/(const Q& a, const Q& b) {
    if (!a.b && !b.b) {
        Q r;
        if (small_q(i128(a.n) * b.d, i128(a.d) * b.n, r)) return r;
    }
    return big_op(a, b, mpq_div);
}
inline int cmp(const Q& a, const Q& b) {
    if (!a.b && !b.b) {
        if (a.d == b.d) return a.n < b.n ? -1 : (a.n > b.n ? 1 : 0);
        i128 l = i128(a.n) * b.d, r = i128(b.n) * a.d;
        return l < r ? -1 : (l > r ? 1 : 0);
    }
    if (!a.b) return -cmp(b, a);  // (one of them is GMP's: now a)
    int c = b.b ? mpq_cmp(a.b->get_mpq_t(), b.b->get_mpq_t())
                : mpq_cmp_si(a.b->get_mpq_t(), long(b.n), (unsigned long)(b.d));
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}
inline bool operator<(const Q& a, const Q& b) { return cmp(a, b) < 0; }
inline bool operator>(const Q& a, const Q& b) { return cmp(a, b) > 0; }
inline bool operator<=(const Q& a, const Q& b) { return cmp(a, b) <= 0; }
inline bool operator>=(const Q& a, const Q& b) { return cmp(a, b) >= 0; }
inline bool operator==(const Q& a, const Q& b) {
    if (a.b || b.b) return a.b && b.b && *a.b == *b.b;
    return a.n == b.n && a.d == b.d;
}
inline bool operator!=(const Q& a, const Q& b) { return !(a == b); }
inline Q qmax(const Q& a, const Q& b) { return a < b ? b : a; }
inline Q qmin(const Q& a, const Q& b) { return b < a ? b : a; }
inline double qd(const Q& a) { return a.b ? a.b->get_d() : double(a.n) / double(a.d); }
inline bool is_zero(const Q& a) { return !a.b && a.n == 0; }

// floor and ceiling, clamped to the int32 range (for the table's widened bounds); a GMP value
// is rounded in place (not negated, which would copy it, for the ceiling)
inline i64 round_q(const Q& a, bool up) {
    if (a.b) {
        mpz_class f;
        (up ? mpz_cdiv_q : mpz_fdiv_q)(f.get_mpz_t(), a.b->get_num_mpz_t(), a.b->get_den_mpz_t());
        if (!mpz_fits_slong_p(f.get_mpz_t())) return mpz_sgn(f.get_mpz_t()) < 0 ? INT32_MIN : INT32_MAX;
        return mpz_get_si(f.get_mpz_t());
    }
    i64 f = a.n / a.d;  // (towards zero)
    if (a.n % a.d != 0) f += up ? (a.n > 0) : -(a.n < 0);
    return f;
}

const Q INF(1000000000);  // beyond any value, as solver.search.INF

// ---------------------------------------------------------------------------------------------
// Compact positions: rows sorted by last card, hands as bit sets of cards

const int MAXROWS = 16;
const int MAXP = 10;
const int MAXCARD = 127;

struct Row {
    uint8_t last, first, len;
    uint8_t pad;  // the row's number in the reference's order (read only by the bots' reply)
    int32_t heads;
};

struct Table {
    int n = 0;
    Row r[MAXROWS];
};

struct Hands {
    int n = 0;
    u128 h[MAXP];
};

inline int popcount128(u128 x) {
    return __builtin_popcountll(u64(x)) + __builtin_popcountll(u64(x >> 64));
}
inline int ctz128(u128 x) {
    u64 lo = u64(x);
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(u64(x >> 64));
}
inline int top128(u128 x) {
    u64 hi = u64(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(u64(x));
}
inline int cards_of(u128 x, int* out) {
    int k = 0;
    while (x) {
        int c = ctz128(x);
        out[k++] = c;
        x &= x - 1;
    }
    return k;
}

enum Tie { TIE_OWNER = 0, TIE_RIGHT = 1, TIE_LEFT = 2 };

struct Opt {
    Table t;
    int taken;
    int row;    // the row of t the card goes to (or takes)
    bool take;  // the card takes that row (too low, or the row was full)
};

struct Rules {
    int heads[MAXCARD + 1];
    int capacity;
    bool profi;
    int tie;
};

// solver/kernel.py Kernel._put
inline void put(const Rules& R, const Table& t, int i, int card, bool left, Opt& o) {
    const Row& row = t.r[i];
    int h = R.heads[card];
    o.t = t;
    o.row = i;
    o.take = row.len >= R.capacity;
    if (row.len >= R.capacity) {
        Row nw{uint8_t(card), uint8_t(card), 1, row.pad, h};  // (pad: the row's number stays)
        o.taken = row.heads;
        if (left) {  // the card becomes the row's last card: re-sort
            int m = 0;
            for (int k = 0; k < t.n; ++k)
                if (k != i) o.t.r[m++] = t.r[k];
            int pos = m;
            while (pos > 0 && o.t.r[pos - 1].last > card) {
                o.t.r[pos] = o.t.r[pos - 1];
                --pos;
            }
            o.t.r[pos] = nw;
            o.t.n = t.n;
            return;
        }
        o.t.r[i] = nw;
        return;
    }
    o.taken = 0;
    Row nw = row;
    if (left)
        nw.first = uint8_t(card);
    else
        nw.last = uint8_t(card);
    nw.len = uint8_t(row.len + 1);
    nw.heads = row.heads + h;
    o.t.r[i] = nw;
}

// solver/kernel.py Kernel._take_any
inline int take_any(const Rules& R, const Table& t, int card, Opt* out) {
    for (int i = 0; i < t.n; ++i) {
        Row nw{uint8_t(card), uint8_t(card), 1, t.r[i].pad, R.heads[card]};
        Opt& o = out[i];
        o.taken = t.r[i].heads;
        o.row = i;
        o.take = true;
        o.t.n = t.n;
        if (!R.profi) {  // too low: below every last card, its row sorts first
            o.t.r[0] = nw;
            int m = 1;
            for (int k = 0; k < t.n; ++k)
                if (k != i) o.t.r[m++] = t.r[k];
        } else {
            int m = 0;
            for (int k = 0; k < t.n; ++k)
                if (k != i) o.t.r[m++] = t.r[k];
            int pos = m;
            while (pos > 0 && o.t.r[pos - 1].last > card) {
                o.t.r[pos] = o.t.r[pos - 1];
                --pos;
            }
            o.t.r[pos] = nw;
        }
    }
    return t.n;
}

// solver/kernel.py Kernel.place: the number of options; *choice when the owner picks one.
inline int place(const Rules& R, const Table& t, int card, Opt* out, bool* choice) {
    int right = -1;
    for (int i = 0; i < t.n; ++i) {
        if (t.r[i].last < card)
            right = i;
        else
            break;
    }
    if (!R.profi) {
        if (right < 0) {
            *choice = true;
            return take_any(R, t, card, out);
        }
        *choice = false;
        put(R, t, right, card, false, out[0]);
        return 1;
    }
    int left = -1, left_first = 0;
    for (int i = 0; i < t.n; ++i) {
        if (t.r[i].first > card && (left < 0 || t.r[i].first < left_first)) {
            left = i;
            left_first = t.r[i].first;
        }
    }
    if (right < 0 && left < 0) {
        *choice = true;
        return take_any(R, t, card, out);
    }
    *choice = false;
    if (left < 0) {
        put(R, t, right, card, false, out[0]);
        return 1;
    }
    if (right < 0) {
        put(R, t, left, card, true, out[0]);
        return 1;
    }
    int rgap = card - t.r[right].last;
    int lgap = left_first - card;
    if (rgap < lgap || (rgap == lgap && R.tie == TIE_RIGHT)) {
        put(R, t, right, card, false, out[0]);
        return 1;
    }
    if (lgap < rgap || R.tie == TIE_LEFT) {
        put(R, t, left, card, true, out[0]);
        return 1;
    }
    *choice = true;
    put(R, t, right, card, false, out[0]);
    put(R, t, left, card, true, out[1]);
    return 2;
}

// The same rule in place, for the common case without a choice: the heads taken, or -1 (and t
// unchanged) when the card's owner must choose among the options of place().
inline int place_forced(const Rules& R, Table& t, int card) {
    int right = -1;
    for (int i = 0; i < t.n; ++i) {
        if (t.r[i].last < card)
            right = i;
        else
            break;
    }
    if (R.profi) {
        int left = -1, left_first = 0;
        for (int i = 0; i < t.n; ++i)
            if (t.r[i].first > card && (left < 0 || t.r[i].first < left_first)) {
                left = i;
                left_first = t.r[i].first;
            }
        if (left >= 0) {
            if (right >= 0) {
                int rgap = card - t.r[right].last, lgap = left_first - card;
                if (rgap == lgap && R.tie == TIE_OWNER) return -1;
                if (rgap < lgap || (rgap == lgap && R.tie == TIE_RIGHT)) left = -1;
            }
            if (left >= 0) {  // the left placement (rare): through the general rule
                Opt o;
                put(R, t, left, card, true, o);
                t = o.t;
                return o.taken;
            }
        }
    }
    if (right < 0) return -1;
    Row& row = t.r[right];
    int h = R.heads[card];
    if (row.len >= R.capacity) {
        int taken = row.heads;
        row = Row{uint8_t(card), uint8_t(card), 1, row.pad, h};
        return taken;
    }
    row.last = uint8_t(card);
    row.len = uint8_t(row.len + 1);
    row.heads += h;
    return 0;
}

// ---------------------------------------------------------------------------------------------
// The canonical key (solver/kernel.py Kernel.key), hashed to 128 bits

inline u64 mix64(u64 x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

struct Key {
    u64 a, b;
};

struct Hasher {
    u64 a = 0x9e3779b97f4a7c15ULL, b = 0xd1b54a32d192ed03ULL;
    inline void add(u64 w) {
        a = mix64(a ^ (w + 0x632be59bd9b4e019ULL));
        b = mix64(b + w * 0xff51afd7ed558ccdULL + 0x2545f4914f6cdd1dULL) ^ (b >> 17);
    }
};

Key make_key(const Rules& R, const Table& t, const Hands& hs) {
    Hasher H;
    if (R.profi) {
        // Profi: numeric gaps matter, so the exact table and hands.
        for (int i = 0; i < t.n; ++i) {
            const Row& r = t.r[i];
            H.add((u64(1) << 56) | (u64(r.last) << 40) | (u64(r.first) << 32) | (u64(r.len) << 24) |
                  u64(uint32_t(r.heads) & 0xffffff));
        }
        for (int p = 0; p < hs.n; ++p) {
            H.add((u64(2) << 56) | u64(p));
            H.add(u64(hs.h[p]));
            H.add(u64(hs.h[p] >> 64));
        }
        return Key{H.a, H.b};
    }
    // The live cards in ascending order: a hand card as its owner and heads, a row (at its
    // last card) as its length and heads; rows above every hand card apart, by heads alone.
    // A row that fewer hand cards lie above than it has room for can never be filled (every
    // card placed on it lies above its last card), so its length is keyed as NEVER_FULL.
    u128 all = 0;
    for (int p = 0; p < hs.n; ++p) all |= hs.h[p];
    int top = top128(all);
    int total = popcount128(all);
    int seen = 0;
    int ri = 0;
    int high[MAXROWS];
    int nh = 0;
    u128 rest = all;
    const u64 NEVER_FULL = 255;
    while (rest) {
        int c = ctz128(rest);
        rest &= rest - 1;
        while (ri < t.n && t.r[ri].last < c) {
            const Row& r = t.r[ri];
            u64 len = (total - seen <= R.capacity - r.len) ? NEVER_FULL : u64(r.len);
            H.add((u64(2) << 56) | (len << 32) | u64(uint32_t(r.heads)));
            ++ri;
        }
        ++seen;
        int owner = 0;
        for (int p = 0; p < hs.n; ++p)
            if ((hs.h[p] >> c) & 1) {
                owner = p;
                break;
            }
        H.add((u64(1) << 56) | (u64(owner) << 8) | u64(R.heads[c]));
    }
    for (; ri < t.n; ++ri) {
        if (t.r[ri].last > top)
            high[nh++] = t.r[ri].heads;
        else
            H.add((u64(2) << 56) | (u64(t.r[ri].len) << 32) | u64(uint32_t(t.r[ri].heads)));
    }
    std::sort(high, high + nh);
    H.add(u64(3) << 56);
    for (int k = 0; k < nh; ++k) H.add((u64(4) << 56) | u64(uint32_t(high[k])));
    H.add((u64(5) << 56) | u64(hs.n));
    return Key{H.a, H.b};
}

// ---------------------------------------------------------------------------------------------
// Transposition table: 4-entry buckets, depth-preferred replacement, striped spin locks.
// A bucket is chosen by the top 32 bits of the key's first half (any number of buckets); a slot
// keeps that half and 16 bits of the second, so a lookup compares 79 bits of the key. The table
// starts small and grows while one thread searches (re-placing every entry), never past the
// budget counting both tables while it grows; before a second thread starts it takes the
// whole budget at once.

struct Slot {
    u64 check;     // the key's first half, low bit set (0: empty)
    int32_t lo_n;  // bounds as fractions that fit 32 bits (widened outward otherwise)
    uint32_t lo_d;
    int32_t hi_n;
    uint32_t hi_d;
    uint16_t hint_i, hint_j;
    uint8_t depth;
    uint8_t has_hint;
    uint16_t bhi;  // 16 bits of the key's second half
};
static_assert(sizeof(Slot) == 32, "slot size");

struct Bucket {
    Slot s[4];
};

struct Bounds {
    Q lo, hi;
    int hi_i = -1, hi_j = -1;  // hint: best pure row and column
};

inline void store_q(const Q& v, bool lower, int32_t& n, uint32_t& d) {
    if (!v.b && v.n >= INT32_MIN && v.n <= INT32_MAX && v.d <= UINT32_MAX) {
        n = int32_t(v.n);
        d = uint32_t(v.d);
        return;
    }
    i64 w = round_q(v, !lower);  // a wider bound, still proven
    if (w < INT32_MIN) w = INT32_MIN;
    if (w > INT32_MAX) w = INT32_MAX;
    n = int32_t(w);
    d = 1;
}

const u64 START_BUCKETS = u64(1) << 14;  // 2 MiB: one huge page
const u64 BIG_TABLE_BUCKETS = u64(1) << 24;  // 2 GiB

inline bool fits_slot(const Q& v) {
    return !v.b && v.n >= INT32_MIN && v.n <= INT32_MAX && v.d <= UINT32_MAX;
}

// Exact values whose fraction does not fit a slot (they have hundreds or thousands of digits
// from k = 7 on): kept in a side store, in shards with a lock each, up to a byte budget. Without
// it, such a position would be searched again each time it is met (the slot holds only its
// integer floor and ceiling).
struct BigStore {
    static const int SHARDS = 64;
    struct KeyHash {
        size_t operator()(const std::pair<u64, u64>& k) const { return size_t(k.first ^ (k.second * 31)); }
    };
    struct Shard {
        std::mutex mu;
        std::unordered_map<std::pair<u64, u64>, std::shared_ptr<const mpq_class>, KeyHash> map;
    };
    Shard shards[SHARDS];
    std::atomic<u64> bytes{0};
    u64 budget = 0;

    static std::pair<u64, u64> id(const Key& k, int depth) { return {k.a, k.b ^ u64(depth)}; }

    bool put(const Key& k, int depth, const Q& v) {
        if (!v.b) return false;  // (int64 values that merely exceed 32 bits: widened instead)
        u64 size = 64 + (mpz_sizeinbase(v.b->get_num_mpz_t(), 2) +
                         mpz_sizeinbase(v.b->get_den_mpz_t(), 2)) / 8;
        if (bytes.load(std::memory_order_relaxed) + size > budget) return false;
        auto key = id(k, depth);
        Shard& s = shards[k.a % SHARDS];
        std::lock_guard<std::mutex> g(s.mu);
        auto [it, fresh] = s.map.emplace(key, v.b);
        if (fresh) bytes.fetch_add(size, std::memory_order_relaxed);
        return true;
    }
    bool get(const Key& k, int depth, Q& out) {
        auto key = id(k, depth);
        Shard& s = shards[k.a % SHARDS];
        std::lock_guard<std::mutex> g(s.mu);
        auto it = s.map.find(key);
        if (it == s.map.end()) return false;
        out = Q(0);
        out.b = it->second;
        return true;
    }
};

// Zeroed memory for the table straight from the kernel, in 2 MiB huge pages where the system
// allows (madvise): a random probe of a table of gigabytes then misses the TLB far less often,
// and the kernel zeroes it in 512 times fewer faults.
inline Bucket* alloc_buckets(u64 n) {
    size_t bytes = n * sizeof(Bucket);
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return nullptr;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return static_cast<Bucket*>(p);
}
inline void free_buckets(Bucket* b, u64 n) {
    if (b) munmap(b, n * sizeof(Bucket));
}
const int LOCK_BITS = 16;

struct TT {
    Bucket* buckets = nullptr;
    u64 n = 0;       // buckets
    u64 budget = 0;  // bytes
    std::atomic<uint8_t> locks[1 << LOCK_BITS];
    std::atomic<u64> filled{0};
    BigStore bigs;

    TT() {
        for (auto& l : locks) l.store(0, std::memory_order_relaxed);
    }
    static u64 bytes_for(u64 nb) { return nb * sizeof(Bucket); }
    u64 max_buckets() const { return budget / sizeof(Bucket); }

    bool init(u64 bytes) {
        // An eighth of the budget for the long exact values, the rest for the table.
        bigs.budget = bytes / 8;
        bytes -= bigs.budget;
        budget = bytes;
        if (max_buckets() < 16) return false;
        n = std::min(START_BUCKETS, max_buckets());
        buckets = alloc_buckets(n);
        return buckets != nullptr;
    }
    ~TT() { free_buckets(buckets, n); }
    u64 capacity() const { return n * 4; }
    u64 bytes() const { return bytes_for(n); }

    inline u64 index(u64 check) const { return u64((u128(check >> 32) * n) >> 32); }
    inline void lock(u64 i) {
        auto& l = locks[i & ((1 << LOCK_BITS) - 1)];
        uint8_t z = 0;
        while (!l.compare_exchange_weak(z, 1, std::memory_order_acquire)) z = 0;
    }
    inline void unlock(u64 i) {
        locks[i & ((1 << LOCK_BITS) - 1)].store(0, std::memory_order_release);
    }

    // The slot of a key at a depth in its bucket, or null.
    static inline Slot* match(Bucket& b, u64 check, uint16_t bhi, int depth) {
        for (auto& s : b.s)
            if (s.check == check && s.bhi == bhi && s.depth == depth) return &s;
        return nullptr;
    }

    bool get(const Key& k, int depth, Bounds& out) {
        u64 check = k.a | 1;
        uint16_t bhi = uint16_t(k.b);
        u64 i = index(check);
        bool big = false;
        lock(i);
        const Slot* s = match(buckets[i], check, bhi, depth);
        if (s) {
            out.lo.n = s->lo_n;
            out.lo.d = s->lo_d;
            out.hi.n = s->hi_n;
            out.hi.d = s->hi_d;
            out.hi_i = (s->has_hint & 1) ? s->hint_i : -1;
            out.hi_j = (s->has_hint & 1) ? s->hint_j : -1;
            big = (s->has_hint & 2) != 0;
        }
        bool found = s != nullptr;
        unlock(i);
        if (big) {  // an exact value too long for the slot: kept aside
            Q v;
            if (bigs.get(k, depth, v)) out.lo = out.hi = v;
        }
        return found;
    }

    // Whether the table holds a slot for this key at this depth marked as having its exact
    // value in the side store (under the bucket's lock).
    bool has_big(const Key& k, int depth) {
        u64 check = k.a | 1;
        u64 i = index(check);
        lock(i);
        const Slot* s = match(buckets[i], check, uint16_t(k.b), depth);
        bool found = s && (s->has_hint & 2);
        unlock(i);
        return found;
    }

    static inline Slot* choose(Bucket& b, u64 check, uint16_t bhi, int depth, bool& fresh) {
        fresh = false;
        if (Slot* s = match(b, check, bhi, depth)) return s;
        for (auto& s : b.s)
            if (s.check == 0) {
                fresh = true;
                return &s;
            }
        Slot* t = &b.s[0];  // depth-preferred: the entry with the fewest cards left goes
        for (auto& s : b.s)
            if (s.depth < t->depth) t = &s;
        return t;
    }

    void put(const Key& k, int depth, const Bounds& e) {
        u64 check = k.a | 1;
        uint16_t bhi = uint16_t(k.b);
        u64 i = index(check);
        lock(i);
        bool fresh;
        Slot* t = choose(buckets[i], check, bhi, depth, fresh);
        if (fresh) filled.fetch_add(1, std::memory_order_relaxed);
        t->check = check;
        t->bhi = bhi;
        store_q(e.lo, true, t->lo_n, t->lo_d);
        store_q(e.hi, false, t->hi_n, t->hi_d);
        t->depth = uint8_t(depth);
        bool big = e.lo == e.hi && !fits_slot(e.lo) && bigs.put(k, depth, e.lo);
        t->has_hint = uint8_t((e.hi_i >= 0 ? 1 : 0) | (big ? 2 : 0));
        t->hint_i = uint16_t(e.hi_i < 0 ? 0 : e.hi_i);
        t->hint_j = uint16_t(e.hi_j < 0 ? 0 : e.hi_j);
        unlock(i);
    }

    // Grow to `want` buckets (at most what the budget leaves beside the current table),
    // re-placing every entry. One thread only. False (unchanged) if it cannot grow.
    bool grow(u64 want) {
        u64 room = max_buckets() > n ? max_buckets() - n : 0;
        want = std::min(want, room);
        if (want <= n) return false;
        Bucket* nb = alloc_buckets(want);
        if (!nb) return false;
        Bucket* old = buckets;
        u64 old_n = n;
        buckets = nb;
        n = want;
        u64 count = 0;
        for (u64 i = 0; i < old_n; ++i)
            for (auto& s : old[i].s) {
                if (!s.check) continue;
                bool fresh;
                Slot* t = choose(buckets[index(s.check)], s.check, s.bhi, s.depth, fresh);
                if (fresh || t->depth < s.depth) {
                    if (fresh) ++count;
                    *t = s;
                }
            }
        filled.store(count);
        free_buckets(old, old_n);
        return true;
    }

    // Grow when more than half full (single-threaded search): four times larger, or straight
    // to what the budget leaves once the table is within a sixteenth of it (so the last table
    // takes nearly the whole budget rather than the room a half-size table would leave).
    void maybe_grow() {
        if (filled.load(std::memory_order_relaxed) * 2 <= capacity()) return;
        grow(n * 16 > max_buckets() ? max_buckets() : n * 4);
    }
};

// ---------------------------------------------------------------------------------------------
// Checkpoints: the table's entries written to a file and read back, so that a long search can
// stop and resume (another run, another day) without losing what it proved. Every entry is a
// proven bound of its position whatever the search that found it, so any subset of the table,
// taken at any moment (each bucket under its lock), is a valid start for any later search with
// the same configuration. The file names the configuration by a hash of it and carries the keys
// of two fixed positions: a file of another configuration, or written by a build whose key
// differs, is refused rather than read.
//
//   header: "take6tt\0", u32 format, u32 slot bytes, u64 config hash, 2 x Key (probes),
//           u64 slots, u64 long values
//   slots:  raw Slot records
//   long values: u64 a, u64 b, then numerator and denominator as mpz_out_raw
//   trailer: u64 checksum of the slots and long values (FNV-1a over their bytes, seeded by the
//            configuration's hash); the counts are checked by the file's length

const char CKPT_MAGIC[8] = {'t', 'a', 'k', 'e', '6', 't', 't', 0};
const uint32_t CKPT_FORMAT = 1;

struct Hashing {
    u64 h;
    explicit Hashing(u64 seed) : h(1469598103934665603ull ^ seed) {}
    void add(const void* p, size_t n) {
        const unsigned char* c = static_cast<const unsigned char*>(p);
        for (size_t i = 0; i < n; ++i) {
            h ^= c[i];
            h *= 1099511628211ull;
        }
    }
};

// A file writer that hashes what it writes.
struct Out {
    FILE* f;
    Hashing sum;
    bool ok = true;
    Out(FILE* f_, u64 seed) : f(f_), sum(seed) {}
    void put(const void* p, size_t n) {
        if (!ok) return;
        sum.add(p, n);
        if (fwrite(p, 1, n, f) != n) ok = false;
    }
};
struct In {
    FILE* f;
    Hashing sum;
    bool ok = true;
    In(FILE* f_, u64 seed) : f(f_), sum(seed) {}
    bool get(void* p, size_t n) {
        if (!ok) return false;
        if (fread(p, 1, n, f) != n) return ok = false;
        sum.add(p, n);
        return true;
    }
};

// mpz_out_raw / mpz_inp_raw through the hashing streams: a 4-byte big-endian signed size
// (bytes, negative for a negative number) and the magnitude, most significant byte first.
void put_mpz(Out& o, const mpz_class& z) {
    size_t count = 0;
    void* raw = mpz_export(nullptr, &count, 1, 1, 1, 0, z.get_mpz_t());
    int32_t sz = int32_t(count) * (sgn(z) < 0 ? -1 : 1);
    unsigned char b[4] = {uint8_t(uint32_t(sz) >> 24), uint8_t(uint32_t(sz) >> 16),
                          uint8_t(uint32_t(sz) >> 8), uint8_t(uint32_t(sz))};
    o.put(b, 4);
    if (count) o.put(raw, count);
    void (*freefunc)(void*, size_t);
    mp_get_memory_functions(nullptr, nullptr, &freefunc);
    if (raw) freefunc(raw, count);
}
bool get_mpz(In& in, mpz_class& z) {
    unsigned char b[4];
    if (!in.get(b, 4)) return false;
    int32_t sz = int32_t((uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) |
                         uint32_t(b[3]));
    size_t count = size_t(sz < 0 ? -i64(sz) : sz);
    if (count > (size_t(1) << 24)) return in.ok = false;  // no value of the game is that long
    std::vector<unsigned char> raw(count);
    if (count && !in.get(raw.data(), count)) return false;
    mpz_import(z.get_mpz_t(), count, 1, 1, 1, 0, raw.data());
    if (sz < 0) z = -z;
    return true;
}

// ---------------------------------------------------------------------------------------------
// Stage games (solver/matrix.py): exact value and strategies of a small zero-sum matrix game

using Mat = std::vector<std::vector<Q>>;

// An m x n matrix over a block owned elsewhere; m[i][j] as for a nested vector.
struct FlatMat {
    int m, n;
    Q* v;
    FlatMat(int m_, int n_, std::vector<Q>& store, const Q& fill) : m(m_), n(n_) {
        store.assign(size_t(m_) * n_, fill);
        v = store.data();
    }
    Q* operator[](int i) { return v + size_t(i) * n; }
    const Q* operator[](int i) const { return v + size_t(i) * n; }
    Mat mat() const {
        Mat out(m, std::vector<Q>(n));
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) out[i][j] = v[size_t(i) * n + j];
        return out;
    }
};

struct GameSol {
    Q value;
    std::vector<Q> x, y;
};

bool verify_game(const Mat& a, Q v, const std::vector<Q>& x, const std::vector<Q>& y) {
    size_t m = a.size(), n = a[0].size();
    Q sx(0), sy(0);
    for (auto& p : x) {
        if (p < Q(0)) return false;
        sx = sx + p;
    }
    for (auto& p : y) {
        if (p < Q(0)) return false;
        sy = sy + p;
    }
    if (sx != Q(1) || sy != Q(1)) return false;
    for (size_t j = 0; j < n; ++j) {
        Q s(0);
        for (size_t i = 0; i < m; ++i)
            if (!is_zero(x[i])) s = s + x[i] * a[i][j];
        if (s < v) return false;
    }
    for (size_t i = 0; i < m; ++i) {
        Q s(0);
        for (size_t j = 0; j < n; ++j)
            if (!is_zero(y[j])) s = s + a[i][j] * y[j];
        if (s > v) return false;
    }
    return true;
}

void reduce_dominated(const Mat& a, std::vector<int>& rows, std::vector<int>& cols) {
    rows.clear();
    cols.clear();
    for (int i = 0; i < int(a.size()); ++i) rows.push_back(i);
    for (int j = 0; j < int(a[0].size()); ++j) cols.push_back(j);
    bool changed = true;
    std::vector<int> keep;
    while (changed) {
        changed = false;
        keep.clear();
        for (int i : rows) {
            bool dominated = false;
            for (int k : rows) {
                if (k == i) continue;
                bool ge = true, gt = false;
                for (int j : cols) {
                    int c = cmp(a[k][j], a[i][j]);
                    if (c < 0) {
                        ge = false;
                        break;
                    }
                    if (c > 0) gt = true;
                }
                if (ge && (k < i || gt)) {
                    dominated = true;
                    break;
                }
            }
            if (!dominated) keep.push_back(i);
        }
        if (keep.size() < rows.size()) {
            rows = keep;
            changed = true;
        }
        keep.clear();
        for (int j : cols) {
            bool dominated = false;
            for (int l : cols) {
                if (l == j) continue;
                bool le = true, lt = false;
                for (int i : rows) {
                    int c = cmp(a[i][l], a[i][j]);
                    if (c > 0) {
                        le = false;
                        break;
                    }
                    if (c < 0) lt = true;
                }
                if (le && (l < j || lt)) {
                    dominated = true;
                    break;
                }
            }
            if (!dominated) keep.push_back(j);
        }
        if (keep.size() < cols.size()) {
            cols = keep;
            changed = true;
        }
    }
}

// solver/matrix.py float_game: a dense tableau simplex finds approximate supports.
bool float_game(const std::vector<std::vector<double>>& a, std::vector<double>& fx,
                std::vector<double>& fy) {
    const double EPS = 1e-9;
    int m = int(a.size()), n = int(a[0].size());
    double lo = a[0][0];
    for (auto& r : a)
        for (double v : r) lo = std::min(lo, v);
    int width = n + m;
    std::vector<std::vector<double>> t(m, std::vector<double>(width, 0.0));
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) t[i][j] = a[i][j] - lo + 1.0;
        t[i][n + i] = 1.0;
    }
    std::vector<double> rhs(m, 1.0), obj(width, 0.0);
    for (int j = 0; j < n; ++j) obj[j] = -1.0;
    std::vector<int> basis(m);
    for (int i = 0; i < m; ++i) basis[i] = n + i;
    int it = 0, limit = 50 * (m + n) + 50;
    for (;; ++it) {
        if (it >= limit) return false;
        int e = -1;
        double best = -EPS;
        for (int c = 0; c < width; ++c)
            if (obj[c] < best) {
                best = obj[c];
                e = c;
            }
        if (e < 0) break;
        int r = -1;
        double ratio = 0.0;
        for (int i = 0; i < m; ++i) {
            double coef = t[i][e];
            if (coef > EPS) {
                double cand = rhs[i] / coef;
                if (r < 0 || cand < ratio - 1e-12) {
                    r = i;
                    ratio = cand;
                }
            }
        }
        if (r < 0) return false;
        double inv = 1.0 / t[r][e];
        for (int c = 0; c < width; ++c) t[r][c] *= inv;
        rhs[r] *= inv;
        for (int i = 0; i < m; ++i) {
            if (i == r) continue;
            double f = t[i][e];
            if (f != 0.0) {
                for (int c = 0; c < width; ++c) t[i][c] -= f * t[r][c];
                rhs[i] -= f * rhs[r];
            }
        }
        double f = obj[e];
        for (int c = 0; c < width; ++c) obj[c] -= f * t[r][c];
        basis[r] = e;
    }
    std::vector<double> q(n, 0.0);
    for (int i = 0; i < m; ++i)
        if (basis[i] < n) q[basis[i]] = rhs[i];
    double s = 0;
    for (double v : q) s += v;
    if (s <= 0) return false;
    double sp = 0;
    for (int i = 0; i < m; ++i) sp += obj[n + i];
    if (sp <= 0) return false;
    fx.assign(m, 0.0);
    fy.assign(n, 0.0);
    for (int i = 0; i < m; ++i) fx[i] = obj[n + i] / sp;
    for (int j = 0; j < n; ++j) fy[j] = q[j] / s;
    return true;
}

bool solve_linear(std::vector<std::vector<Q>>& aug, int size, std::vector<Q>& out) {
    for (int col = 0; col < size; ++col) {
        int piv = -1;
        for (int r = col; r < size; ++r)
            if (!is_zero(aug[r][col])) {
                piv = r;
                break;
            }
        if (piv < 0) return false;
        std::swap(aug[col], aug[piv]);
        Q pv = aug[col][col];
        for (auto& v : aug[col]) v = v / pv;
        for (int r = 0; r < size; ++r) {
            if (r != col && !is_zero(aug[r][col])) {
                Q f = aug[r][col];
                for (int c = 0; c <= size; ++c) aug[r][c] = aug[r][c] - f * aug[col][c];
            }
        }
    }
    out.resize(size);
    for (int r = 0; r < size; ++r) out[r] = aug[r][size];
    return true;
}

bool from_supports(const Mat& a, const std::vector<int>& sr, const std::vector<int>& sc, Q& v,
                   std::vector<Q>& xs, std::vector<Q>& ys) {
    int k = int(sr.size());
    if (k != int(sc.size()) || k == 0) return false;
    // One side's equalising strategy on the supports: sum_c a(r, c) p_c - v = 0 for each of
    // the other side's support actions r, sum p = 1 (the max side's system is the transpose).
    auto equalise = [&](bool transpose, std::vector<Q>& out) {
        std::vector<std::vector<Q>> m(k + 1, std::vector<Q>(k + 2));
        for (int r = 0; r < k; ++r) {
            for (int c = 0; c < k; ++c) m[r][c] = transpose ? a[sr[c]][sc[r]] : a[sr[r]][sc[c]];
            m[r][k] = Q(-1);
            m[r][k + 1] = Q(0);
        }
        for (int c = 0; c < k; ++c) m[k][c] = Q(1);
        m[k][k] = Q(0);
        m[k][k + 1] = Q(1);
        return solve_linear(m, k + 1, out);
    };
    std::vector<Q> sy, sx;
    if (!equalise(false, sy) || !equalise(true, sx)) return false;
    if (sx[k] != sy[k]) return false;
    v = sy[k];
    xs.assign(sx.begin(), sx.begin() + k);
    ys.assign(sy.begin(), sy.begin() + k);
    return true;
}

// solver/matrix.py solve_exact_simplex: a rational tableau simplex with Bland's rule.
void exact_simplex(const Mat& a, Q& value, std::vector<Q>& x, std::vector<Q>& y) {
    int m = int(a.size()), n = int(a[0].size());
    Q lo = a[0][0];
    for (auto& r : a)
        for (auto& v : r) lo = qmin(lo, v);
    Q shift = Q(1) - lo;
    int width = n + m;
    std::vector<std::vector<Q>> t(m, std::vector<Q>(width, Q(0)));
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) t[i][j] = a[i][j] + shift;
        t[i][n + i] = Q(1);
    }
    std::vector<Q> rhs(m, Q(1)), obj(width, Q(0));
    for (int j = 0; j < n; ++j) obj[j] = Q(-1);
    std::vector<int> basis(m);
    for (int i = 0; i < m; ++i) basis[i] = n + i;
    while (true) {
        int e = -1;
        for (int c = 0; c < width; ++c)
            if (obj[c] < Q(0)) {
                e = c;
                break;
            }
        if (e < 0) break;
        int r = -1;
        Q ratio(0);
        for (int i = 0; i < m; ++i) {
            if (t[i][e] > Q(0)) {
                Q cand = rhs[i] / t[i][e];
                if (r < 0 || cand < ratio || (cand == ratio && basis[i] < basis[r])) {
                    r = i;
                    ratio = cand;
                }
            }
        }
        Q piv = t[r][e];
        for (auto& v : t[r]) v = v / piv;
        rhs[r] = rhs[r] / piv;
        for (int i = 0; i < m; ++i) {
            if (i != r && !is_zero(t[i][e])) {
                Q f = t[i][e];
                for (int c = 0; c < width; ++c) t[i][c] = t[i][c] - f * t[r][c];
                rhs[i] = rhs[i] - f * rhs[r];
            }
        }
        Q f = obj[e];
        for (int c = 0; c < width; ++c) obj[c] = obj[c] - f * t[r][c];
        basis[r] = e;
    }
    std::vector<Q> q(n, Q(0));
    for (int i = 0; i < m; ++i)
        if (basis[i] < n) q[basis[i]] = rhs[i];
    Q s(0);
    for (auto& v : q) s = s + v;
    value = Q(1) / s - shift;
    x.assign(m, Q(0));
    y.assign(n, Q(0));
    for (int i = 0; i < m; ++i) x[i] = obj[n + i] / s;
    for (int j = 0; j < n; ++j) y[j] = q[j] / s;
}

GameSol solve_game(const Mat& a) {
    int m = int(a.size()), n = int(a[0].size());
    GameSol out;
    // 1. pure saddle point
    {
        int bi = 0;
        Q best = -INF - Q(1);
        std::vector<Q> rmin(m);
        for (int i = 0; i < m; ++i) {
            Q mn = a[i][0];
            for (int j = 1; j < n; ++j) mn = qmin(mn, a[i][j]);
            rmin[i] = mn;
            if (mn > best) {
                best = mn;
                bi = i;
            }
        }
        int bj = 0;
        Q worst = INF + Q(1);
        for (int j = 0; j < n; ++j) {
            Q mx = a[0][j];
            for (int i = 1; i < m; ++i) mx = qmax(mx, a[i][j]);
            if (mx < worst) {
                worst = mx;
                bj = j;
            }
        }
        if (best == worst) {
            out.value = a[bi][bj];
            out.x.assign(m, Q(0));
            out.y.assign(n, Q(0));
            out.x[bi] = Q(1);
            out.y[bj] = Q(1);
            return out;
        }
    }
    // 2. iterated weak dominance
    std::vector<int> rows, cols;
    reduce_dominated(a, rows, cols);
    Mat sub(rows.size(), std::vector<Q>(cols.size()));
    for (size_t i = 0; i < rows.size(); ++i)
        for (size_t j = 0; j < cols.size(); ++j) sub[i][j] = a[rows[i]][cols[j]];
    bool found = false;
    Q v;
    std::vector<Q> xs, ys;
    // 3. 2x2 closed form
    if (rows.size() == 2 && cols.size() == 2) {
        Q p = sub[0][0], q = sub[0][1], r = sub[1][0], s = sub[1][1];
        Q den = p - q - r + s;
        if (!is_zero(den)) {
            Q x1 = (s - r) / den, y1 = (s - q) / den;
            if (Q(0) < x1 && x1 < Q(1) && Q(0) < y1 && y1 < Q(1)) {
                v = (p * s - q * r) / den;
                xs = {x1, Q(1) - x1};
                ys = {y1, Q(1) - y1};
                found = true;
            }
        }
    }
    // 4. float simplex for the supports, then exact equalising strategies, verified
    if (!found) {
        std::vector<std::vector<double>> fa(sub.size(), std::vector<double>(cols.size()));
        for (size_t i = 0; i < sub.size(); ++i)
            for (size_t j = 0; j < cols.size(); ++j) fa[i][j] = qd(sub[i][j]);
        std::vector<double> fx, fy;
        if (float_game(fa, fx, fy)) {
            std::vector<int> sr, sc;
            for (int i = 0; i < int(fx.size()); ++i)
                if (fx[i] > 1e-7) sr.push_back(i);
            for (int j = 0; j < int(fy.size()); ++j)
                if (fy[j] > 1e-7) sc.push_back(j);
            Q vv;
            std::vector<Q> px, py;
            if (from_supports(sub, sr, sc, vv, px, py)) {
                std::vector<Q> xx(rows.size(), Q(0)), yy(cols.size(), Q(0));
                for (size_t k = 0; k < sr.size(); ++k) xx[sr[k]] = px[k];
                for (size_t k = 0; k < sc.size(); ++k) yy[sc[k]] = py[k];
                if (verify_game(sub, vv, xx, yy)) {
                    v = vv;
                    xs = xx;
                    ys = yy;
                    found = true;
                }
            }
        }
    }
    if (!found) exact_simplex(sub, v, xs, ys);
    out.value = v;
    out.x.assign(m, Q(0));
    out.y.assign(n, Q(0));
    for (size_t k = 0; k < rows.size(); ++k) out.x[rows[k]] = xs[k];
    for (size_t k = 0; k < cols.size(); ++k) out.y[cols[k]] = ys[k];
    if (!verify_game(a, v, out.x, out.y)) throw std::logic_error("stage game failed its exact check");
    return out;
}

// ---------------------------------------------------------------------------------------------
// The search (solver/search.py Search)

struct Config {
    Rules R;
    int players;
    int w[MAXP];
    bool maximiser[MAXP];
    int max_side[MAXP], nmax;
    int min_side[MAXP], nmin;
    int wneg, wpos;
};

// A search run on a thread of its own while the caller goes on (Search.start / wait): the
// leaves of a solve by cells searched side by side on one table.
struct AsyncTask {
    long id = 0;
    int worker = 1;  // its searcher's number: unique among the tasks not yet collected
    Table t;
    Hands hs;
    Q alpha, beta;
    Bounds result;
    u64 nodes = 0;
    std::atomic<u64> counted{0};  // its nodes so far, those other threads searched for it too
    double seconds = 0;
    std::atomic<bool> halt{false};  // cancel: the search stops with the bounds it has
    std::atomic<bool> done{false};
    std::exception_ptr err;
    std::thread th;
};

class Searcher;

// A parallel loop (Searcher::par_for) open to other threads: task(searcher, k) for k < count.
// Its poster runs tasks too, and returns only once none is running (the task refers to the
// poster's stack). Threads that wait take tasks of open loops of fewer cards a hand than their
// own (so their work space of those depths is free): a thread whose loop waits for a long
// task helps inside it.
struct Job {
    const std::function<bool(Searcher&, int)>* task = nullptr;
    int count = 0;
    int depth = 0;                 // cards a hand of the position whose loop this is
    bool nested = false;           // offered from inside another loop's task
    std::atomic<bool>* halt_flag = nullptr;  // the poster's own stop (a started search's cancel)
    std::atomic<u64>* account = nullptr;     // where the poster's nodes are counted
    std::atomic<int> next{0};      // the next task to claim
    std::atomic<int> running{0};   // claimed (or about to be claimed) and not finished
    std::atomic<bool> halt{false};  // a task returned false: claim no more
    std::mutex mu;
    std::exception_ptr err;
};

struct Shared {
    Config cfg;
    TT tt;
    std::atomic<u64> nodes{0};
    std::atomic<u64> lps{0};
    std::atomic<u64> saddles{0};
    std::atomic<u64> hits{0};
    std::atomic<u64> expansions[33] = {};  // by cards left per hand (32: more)
    std::atomic<u64> exact_out[33] = {};   // expansions that ended exact
    std::atomic<bool> stopped{false};
    // Growing the table while worker threads run: the main thread sets pause, waits until
    // every active worker has stopped at a safe point, grows, and releases them.
    std::atomic<bool> pause{false};
    std::atomic<bool> threads_running{false};
    std::atomic<int> active{0};
    std::atomic<int> paused{0};
    // The root's proven bounds so far (written by the main thread, read by progress).
    int root_depth = -1;
    std::mutex root_mu;
    Q root_lo, root_hi;
    // Where the root's stage game is (for the progress line): phase 0 not yet expanded, 1 the
    // max side's pure phase (rows), 2 the min side's (columns), 3 refining a mixed game
    // (cells); `done` of `total` rows, columns or cells finished in that phase.
    std::atomic<int> root_phase{0}, root_done{0}, root_total{0};
    // Threads that share the root's cells (the table is grown to the budget before they run).
    int want_threads = 1;
    // The loops open to helpers while the threads of a value() run (see Job), and how many of
    // those threads are waiting for work (a position's loop is offered only when one is).
    std::mutex jobs_mu;
    std::vector<Job*> jobs;
    std::atomic<int> idle{0};
    std::atomic<bool> pool_on{false};
    std::atomic<u64> nested_loops{0}, helped_tasks{0};  // (counts, for stats())
    std::atomic<int> running_tasks{0};  // started searches not finished yet
    // Searches started by Search.start and not yet collected by Search.wait.
    std::vector<std::unique_ptr<AsyncTask>> tasks;
    long next_task = 0;
    int exact_depth = 2;
    // Killer cards by cards a hand: each side's card of the best pure pair of the last
    // position of that size expanded (card + 1; 0: none yet), tried first where the table has
    // no hint for a position (the first row and column of its stage game). Shared by every
    // thread and kept from one search to the next: the leaf searches of a solve by cells
    // start at positions the table has never seen, and a sibling's best cards are a good first
    // guess there (a race between threads only changes an order, never a value). Off
    // (configure(killers=False)) where they were measured to cost: the 2-player draft's
    // leaves, unrelated deals searched with windows at 0.
    std::atomic<int> killer_max[34] = {}, killer_min[34] = {};
    bool killers = true;
    u64 node_limit = 0;  // 0: none
    double deadline = 0;  // 0: none (seconds on the steady clock)
};

// The configuration's hash: every setting a stored bound depends on.
u64 config_hash(const Config& C) {
    Hashing h(0x7a6b6536ull);
    h.add(C.R.heads, sizeof(C.R.heads));
    int v[4] = {C.R.capacity, C.R.profi ? 1 : 0, C.R.tie, C.players};
    h.add(v, sizeof(v));
    h.add(C.w, sizeof(int) * C.players);
    h.add(&C.nmax, sizeof(int));
    h.add(C.max_side, sizeof(int) * C.nmax);
    h.add(&C.nmin, sizeof(int));
    h.add(C.min_side, sizeof(int) * C.nmin);
    return h.h;
}

// The keys of two fixed positions: equal in the file and here only if the key function is.
void probe_keys(const Config& C, Key out[2]) {
    for (int v = 0; v < 2; ++v) {
        Table t;
        t.n = 4;
        const int ends[4] = {3, 9, 14, 20};
        for (int i = 0; i < 4; ++i) {
            int c = ends[i] + v;
            t.r[i] = Row{uint8_t(c), uint8_t(c), uint8_t(1 + (i + v) % 3), 0, C.R.heads[c] + i};
        }
        Hands hs;
        hs.n = C.players;
        for (int p = 0; p < C.players; ++p)
            hs.h[p] = (u128(1) << (1 + p)) | (u128(1) << (21 + 2 * p + v)) | (u128(1) << (50 + 3 * p));
        out[v] = make_key(C.R, t, hs);
    }
}

// A checkpoint file opened with a 1 MiB buffer (buf, which must outlive it); null with err
// set ("cannot read/write PATH: why") when it cannot be opened.
FILE* open_buffered(const std::string& path, const char* mode, std::vector<char>& buf,
                    const char* what, std::string& err) {
    FILE* f = fopen(path.c_str(), mode);
    if (!f) {
        err = what + path + ": " + strerror(errno);
        return nullptr;
    }
    buf.resize(1 << 20);
    setvbuf(f, buf.data(), _IOFBF, buf.size());
    return f;
}

// Write the entries of at least min_depth cards a hand (and every long exact value) to path,
// streamed bucket by bucket (no copy of the table in memory), through a temporary file renamed
// at the end (a run killed while writing leaves the last checkpoint whole). The counts, known
// only at the end, are written into the header last. False with err set when the file cannot
// be written.
bool save_table(Shared& S, const std::string& path, int min_depth, u64& nslots, u64& nbig,
                std::string& err) {
    std::string tmp = path + ".tmp";
    std::vector<char> buf;  // (outlives f: closed on every path below)
    FILE* f = open_buffered(tmp, "wb", buf, "cannot write ", err);
    if (!f) return false;
    u64 ch = config_hash(S.cfg);
    Key probes[2];
    probe_keys(S.cfg, probes);
    bool ok = true;
    auto raw = [&](const void* p, size_t n) {
        if (ok && fwrite(p, 1, n, f) != n) ok = false;
    };
    raw(CKPT_MAGIC, 8);
    uint32_t fmt[2] = {CKPT_FORMAT, uint32_t(sizeof(Slot))};
    raw(fmt, sizeof(fmt));
    raw(&ch, 8);
    raw(probes, sizeof(probes));
    long counts_at = ftell(f);
    u64 counts[2] = {0, 0};
    raw(counts, sizeof(counts));
    Out o(f, ch);
    TT& T = S.tt;
    Slot chunk[4];
    for (u64 i = 0; i < T.n && ok; ++i) {
        int k = 0;
        T.lock(i);
        for (const Slot& sl : T.buckets[i].s)
            if (sl.check && sl.depth >= min_depth) chunk[k++] = sl;
        T.unlock(i);
        if (k) o.put(chunk, k * sizeof(Slot));
        counts[0] += u64(k);
    }
    for (auto& sh : T.bigs.shards) {
        std::vector<std::pair<std::pair<u64, u64>, std::shared_ptr<const mpq_class>>> part;
        {
            std::lock_guard<std::mutex> g(sh.mu);
            part.assign(sh.map.begin(), sh.map.end());
        }
        for (auto& b : part) {
            if (min_depth > 2) {
                // Only the values of the slots written (the store's id is the key with its
                // depth folded into the second half: BigStore::id).
                // (A hand holds at most MAXCARD / 2 cards: there are two players at least.)
                bool keep = false;
                for (int d = min_depth; d <= MAXCARD / 2 && !keep; ++d) {
                    Key key{b.first.first, b.first.second ^ u64(d)};
                    keep = T.has_big(key, d);
                }
                if (!keep) continue;
            }
            u64 k[2] = {b.first.first, b.first.second};
            o.put(k, sizeof(k));
            put_mpz(o, b.second->get_num());
            put_mpz(o, b.second->get_den());
            ++counts[1];
        }
    }
    ok = ok && o.ok;
    u64 sum = o.sum.h;
    raw(&sum, 8);
    if (ok && (fseek(f, counts_at, SEEK_SET) != 0 || fwrite(counts, 1, sizeof(counts), f) != sizeof(counts)))
        ok = false;
    if (fflush(f) != 0) ok = false;
    if (fclose(f) != 0) ok = false;
    if (!ok) {
        err = "cannot write " + tmp + ": " + strerror(errno);
        remove(tmp.c_str());
        return false;
    }
    if (rename(tmp.c_str(), path.c_str()) != 0) {
        err = "cannot rename " + tmp + " to " + path + ": " + strerror(errno);
        remove(tmp.c_str());
        return false;
    }
    nslots = counts[0];
    nbig = counts[1];
    return true;
}

// Read a checkpoint into the table (single-threaded, before a search): a first pass checks the
// header and the sum of the whole file, a second reads it into the table, grown first to hold
// it (within the budget; entries beyond the budget are replaced as in a search, depth first).
// False with err set when the file is not a checkpoint of this configuration or is damaged;
// the table is then untouched.
bool load_table(Shared& S, const std::string& path, u64& nslots, u64& nbig, std::string& err) {
    std::vector<char> buf;  // (outlives f: closed on every path below)
    FILE* f = open_buffered(path, "rb", buf, "cannot read ", err);
    if (!f) return false;
    u64 ch = config_hash(S.cfg);
    auto fail = [&](const std::string& why) {
        fclose(f);
        err = path + ": " + why;
        return false;
    };
    auto raw = [&](void* p, size_t n) { return fread(p, 1, n, f) == n; };
    char magic[8];
    if (!raw(magic, 8) || std::memcmp(magic, CKPT_MAGIC, 8) != 0)
        return fail("not a take6 checkpoint");
    uint32_t fmt[2];
    if (!raw(fmt, sizeof(fmt))) return fail("truncated");
    if (fmt[0] != CKPT_FORMAT || fmt[1] != sizeof(Slot))
        return fail("a checkpoint of another format (" + std::to_string(fmt[0]) + ")");
    u64 fch;
    if (!raw(&fch, 8)) return fail("truncated");
    if (fch != ch) return fail("a checkpoint for other rules, another objective or another player");
    Key fprobes[2], probes[2];
    probe_keys(S.cfg, probes);
    if (!raw(fprobes, sizeof(fprobes))) return fail("truncated");
    for (int v = 0; v < 2; ++v)
        if (fprobes[v].a != probes[v].a || fprobes[v].b != probes[v].b)
            return fail("written by a build with another position key");
    u64 counts[2];
    if (!raw(counts, sizeof(counts))) return fail("truncated");
    long body = ftell(f);
    TT& T = S.tt;
    // Pass 1 (check) reads and hashes everything; pass 2 (load) reads it into the table.
    for (int pass = 0; pass < 2; ++pass) {
        if (fseek(f, body, SEEK_SET) != 0) return fail("cannot seek");
        In in(f, ch);
        if (pass == 1) {
            // Room for them all at once (a quarter full, within the budget: at half, 3% of them
            // would meet a full bucket): the file lists them in the order of the buckets, so a
            // table growing as they come would fill a few buckets first and replace entries
            // there while the rest of it stays empty.
            u64 want = T.filled.load() + counts[0] + 1;
            if (want > T.n) T.grow(std::min(want, T.max_buckets()));
        }
        Slot chunk[256];
        for (u64 done = 0; done < counts[0];) {
            u64 k = std::min<u64>(256, counts[0] - done);
            if (!in.get(chunk, k * sizeof(Slot))) return fail("truncated");
            done += k;
            if (pass == 0) continue;
            for (u64 x = 0; x < k; ++x) {
                const Slot& sl = chunk[x];
                if (!(sl.check & 1) || sl.depth < 2) continue;
                u64 i = T.index(sl.check);
                bool fresh;
                Slot* t = TT::choose(T.buckets[i], sl.check, sl.bhi, sl.depth, fresh);
                if (fresh || t->depth <= sl.depth) {
                    if (fresh) T.filled.fetch_add(1);
                    *t = sl;
                }
            }
        }
        for (u64 k = 0; k < counts[1]; ++k) {
            u64 id[2];
            mpz_class num, den;
            if (!in.get(id, sizeof(id)) || !get_mpz(in, num) || !get_mpz(in, den))
                return fail("truncated");
            if (sgn(den) <= 0) return fail("damaged (a denominator)");
            if (pass == 0) continue;
            mpq_class q(num, den);
            q.canonicalize();
            auto& sh = T.bigs.shards[id[0] % BigStore::SHARDS];
            std::lock_guard<std::mutex> g(sh.mu);
            u64 size = 64 + (mpz_sizeinbase(q.get_num_mpz_t(), 2) +
                             mpz_sizeinbase(q.get_den_mpz_t(), 2)) / 8;
            if (T.bigs.bytes.load() + size > T.bigs.budget) continue;
            auto [it, fresh] = sh.map.emplace(std::make_pair(id[0], id[1]),
                                              std::make_shared<const mpq_class>(q));
            if (fresh) T.bigs.bytes.fetch_add(size);
        }
        if (pass == 0) {
            u64 sum;
            u64 expect = in.sum.h;
            if (!raw(&sum, 8)) return fail("truncated");
            if (sum != expect) return fail("damaged (checksum)");
            char extra;
            if (raw(&extra, 1)) return fail("damaged (bytes after the end)");
        }
    }
    fclose(f);
    nslots = counts[0];
    nbig = counts[1];
    return true;
}

inline double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// A joint action: the cards of one side's players, in side order (a pointer into a flat list).

struct Expanded {
    Bounds b;
    std::vector<Q> x, y;  // strategies over the action lists when exact and asked for
    bool has_strategies = false;
};

const int PAR_DEPTH = 6;
const int NEST_DEPTH = 5;
// Searchers' numbers are below this (a loop's work space per thread is indexed by them).
const int MAX_WORKERS = 64;

struct Frame {
    std::vector<int> rows, cols, order_r, order_c, rcopy, ccopy, rord;
    std::vector<Q> lo, hi, colmax;
};

// The cards of a turn (by seat) as (card, seat) pairs in the order they are placed: lowest
// first (insertion sort: at most 10).
inline void reveal(const int* cards, int n, int (*plays)[2]) {
    for (int i = 0; i < n; ++i) {
        int c = cards[i], j = i;
        while (j > 0 && plays[j - 1][0] > c) {
            plays[j][0] = plays[j - 1][0];
            plays[j][1] = plays[j - 1][1];
            --j;
        }
        plays[j][0] = c;
        plays[j][1] = i;
    }
}

// The last turn of hands of one card each: its plays in order, and the empty hands after it.
inline Hands last_turn(const Hands& hs, int (*fin)[2]) {
    int last[MAXP];
    for (int q = 0; q < hs.n; ++q) last[q] = ctz128(hs.h[q]);
    reveal(last, hs.n, fin);
    Hands empty;
    empty.n = hs.n;
    for (int q = 0; q < hs.n; ++q) empty.h[q] = 0;
    return empty;
}

class Searcher {
  public:
    Frame frames[34];
    Shared& S;
    const Config& C;
    int worker;  // 0: the main thread; 1..: the threads that share the root's cells
    bool is_main = false;
    std::atomic<bool>* halt_flag = nullptr;  // a started search's own stop (Search.cancel)
    // Whether this search is to stop now: a limit, Ctrl-C, or its own cancel.
    inline bool halted() const {
        return S.stopped.load(std::memory_order_relaxed) ||
               (halt_flag && halt_flag->load(std::memory_order_relaxed));
    }
    u64 local_nodes = 0;
    // Called on the main thread between nodes (progress, signals); may throw Stopped.
    void (*poll)(void*) = nullptr;
    void* poll_ctx = nullptr;

    Searcher(Shared& s, int w) : S(s), C(s.cfg), worker(w) {}

    // One of the threads that may offer their loops to each other: those of a value() with
    // threads > 1 (the main one and those it starts), the searches of Search.start and the
    // caller's thread waiting for them.
    bool in_pool = false;

    // Run task k of J (J.running already counts it); a task's exception is kept for J's poster.
    void run_task(Job& J, int k) {
        try {
            if (!(*J.task)(*this, k)) J.halt.store(true);
        } catch (...) {
            std::lock_guard<std::mutex> g(J.mu);
            if (!J.err) J.err = std::current_exception();
            J.halt.store(true);
        }
        flush();                 // (the nodes counted where they belong before J can end)
        J.running.fetch_sub(1);  // (the last access to J: its poster may return after this)
    }

    // Take one task of an open loop of fewer than `below` cards a hand (the most recent first:
    // the deepest in the tree, the one a waiting thread most likely waits for). False if none.
    bool help_one(int below) {
        Job* J = nullptr;
        {
            std::lock_guard<std::mutex> g(S.jobs_mu);
            for (auto it = S.jobs.rbegin(); it != S.jobs.rend(); ++it) {
                Job* j = *it;
                if (j->depth < below && !j->halt.load() && j->next.load() < j->count) {
                    J = j;
                    J->running.fetch_add(1);  // (under the lock: the poster waits for it)
                    break;
                }
            }
        }
        if (!J) return false;
        int k = J->next.fetch_add(1);
        if (k >= J->count) {
            J->running.fetch_sub(1);
            return false;
        }
        if (J->nested) S.helped_tasks.fetch_add(1, std::memory_order_relaxed);
        // A cancel of the search helped stops this task too, and its nodes count as that
        // search's.
        flush();
        std::atomic<bool>* own_halt = halt_flag;
        std::atomic<u64>* own_account = account;
        halt_flag = J->halt_flag;
        account = J->account;
        run_task(*J, k);
        halt_flag = own_halt;
        account = own_account;
        return true;
    }

    // Help with loops of fewer than `below` cards a hand until J has no task running (and
    // none left to claim). Worker threads stop here for a growing table; the main thread polls.
    void help_until_done(Job& J, int below) {
        double last_poll = now_s();
        std::exception_ptr failed;
        S.idle.fetch_add(1);
        while (J.running.load() > 0 || (!J.halt.load() && J.next.load() < J.count)) {
            S.idle.fetch_sub(1);
            bool did = help_one(below);
            S.idle.fetch_add(1);
            if (did) continue;
            if (worker) {
                if (S.pause.load(std::memory_order_relaxed)) {
                    S.idle.fetch_sub(1);
                    wait_if_paused();
                    S.idle.fetch_add(1);
                }
            } else if (poll && now_s() - last_poll > 0.005) {
                last_poll = now_s();
                try {
                    poll(poll_ctx);
                } catch (...) {  // (J's tasks refer to this stack: wait for them first)
                    if (!failed) failed = std::current_exception();
                    S.stopped.store(true);
                }
            }
            std::this_thread::yield();
        }
        S.idle.fetch_sub(1);
        if (failed) std::rethrow_exception(failed);
    }

    void static_bounds(const Table& t, const Hands& hs, Q& lo, Q& hi) const {
        i64 total = 0;
        for (int i = 0; i < t.n; ++i) total += t.r[i].heads;
        for (int p = 0; p < hs.n; ++p) {
            u128 x = hs.h[p];
            while (x) {
                total += C.R.heads[ctz128(x)];
                x &= x - 1;
            }
        }
        lo = Q(C.wneg * total);
        hi = Q(C.wpos * total);
    }

    // Counters are kept per thread and added to the shared ones every 256 expansions (shared
    // atomics updated at every node would bounce between the cores' caches).
    u64 c_nodes = 0, c_lps = 0, c_saddles = 0, c_hits = 0;
    u64 c_exp[33] = {}, c_exact[33] = {};

    // Where this searcher's nodes are counted besides the shared count: a started search's own
    // count (Search.start), also for the nodes other threads search in its loops.
    std::atomic<u64>* account = nullptr;

    void flush() {
        if (account && c_nodes) account->fetch_add(c_nodes, std::memory_order_relaxed);
        S.nodes.fetch_add(c_nodes, std::memory_order_relaxed);
        S.lps.fetch_add(c_lps, std::memory_order_relaxed);
        S.saddles.fetch_add(c_saddles, std::memory_order_relaxed);
        S.hits.fetch_add(c_hits, std::memory_order_relaxed);
        for (int k = 0; k < 33; ++k) {
            if (c_exp[k]) S.expansions[k].fetch_add(c_exp[k], std::memory_order_relaxed);
            if (c_exact[k]) S.exact_out[k].fetch_add(c_exact[k], std::memory_order_relaxed);
            c_exp[k] = c_exact[k] = 0;
        }
        c_nodes = c_lps = c_saddles = c_hits = 0;
    }

    // A worker thread stops here while the main thread grows the table (tick is called only
    // between table operations, so no thread holds a slot then).
    void wait_if_paused() {
        if (!S.pause.load()) return;
        S.paused.fetch_add(1);
        while (S.pause.load()) std::this_thread::yield();
        S.paused.fetch_sub(1);
    }

    inline void tick() {
        ++c_nodes;
        ++local_nodes;
        if (worker && S.pause.load(std::memory_order_relaxed)) wait_if_paused();
        if ((local_nodes & 255) == 0) {
            flush();
            if (S.node_limit && S.nodes.load(std::memory_order_relaxed) > S.node_limit)
                S.stopped.store(true);
            if (S.deadline > 0 && now_s() > S.deadline) S.stopped.store(true);
            if (poll) poll(poll_ctx);
        } else if (S.node_limit && S.node_limit < 256 &&
                   S.nodes.load(std::memory_order_relaxed) + c_nodes > S.node_limit) {
            S.stopped.store(true);
        }
    }

    inline void publish(const Hands& hs, const Q& lo, const Q& hi) {
        if (is_main && popcount128(hs.h[0]) == S.root_depth) {
            std::lock_guard<std::mutex> g(S.root_mu);
            if (lo > S.root_lo) S.root_lo = lo;
            if (hi < S.root_hi) S.root_hi = hi;
        }
    }

    // The joint actions of a side, flat (nside cards each), in itertools.product order.
    int actions(const Hands& hs, const int* side, int nside, std::vector<int>& out) const {
        out.clear();
        int cards[MAXP][128];
        int cnt[MAXP];
        for (int k = 0; k < nside; ++k) cnt[k] = cards_of(hs.h[side[k]], cards[k]);
        // itertools.product order: the last player's card varies fastest.
        std::vector<int> idx(nside, 0);
        while (true) {
            for (int k = 0; k < nside; ++k) out.push_back(cards[k][idx[k]]);
            int k = nside - 1;
            while (k >= 0 && ++idx[k] == cnt[k]) {
                idx[k] = 0;
                --k;
            }
            if (k < 0) break;
        }
        return int(out.size()) / nside;
    }

    // Bounds on the value of a position, tight enough for the window (alpha, beta).
    Bounds value(const Table& t, const Hands& hs, Q alpha, Q beta) {
        Bounds out;
        if (hs.h[0] == 0) {
            out.lo = out.hi = Q(0);
            return out;
        }
        int depth = popcount128(hs.h[0]);
        if (depth == 1) {
            ++c_nodes;
            int a[MAXP], b[MAXP];
            for (int k = 0; k < C.nmax; ++k) a[k] = ctz128(hs.h[C.max_side[k]]);
            for (int k = 0; k < C.nmin; ++k) b[k] = ctz128(hs.h[C.min_side[k]]);
            Q lo, hi;
            cell(t, hs, a, b, -INF, INF, lo, hi);
            out.lo = out.hi = lo;
            out.hi_i = out.hi_j = 0;
            return out;
        }
        Key key = make_key(C.R, t, hs);
        Bounds found;
        bool have = S.tt.get(key, depth, found);
        if (depth == 2 && C.nmax == 1 && C.nmin == 1 && !have) {
            Bounds r = exact2(t, hs);  // exact whatever the window: stored as such
            S.tt.put(key, depth, r);
            return r;
        }
        bool stopped = halted();
        if (have) {
            if (found.lo == found.hi || found.hi <= alpha || found.lo >= beta || stopped) {
                ++c_hits;
                return found;
            }
        } else if (stopped) {
            static_bounds(t, hs, out.lo, out.hi);
            return out;
        }
        // Small positions are solved exactly whatever the window: those of 2 cards a hand
        // always, those of 3 once the table is large (measured on a 2 x 8 deal: with a 7 GiB
        // table, each lookup a miss in cache and TLB, searching them exactly once costs 25%
        // less time than windows that bring them back; with a small table, 20% more).
        int exact_depth = S.tt.n >= BIG_TABLE_BUCKETS ? 3 : S.exact_depth;
        if (depth <= exact_depth) {
            alpha = -INF;
            beta = INF;
        }
        Expanded e = expand(t, hs, alpha, beta, have ? &found : nullptr, false);
        Bounds r = e.b;
        if (have) {
            Q lo = qmax(found.lo, r.lo), hi = qmin(found.hi, r.hi);
            if (lo != r.lo || hi != r.hi) {
                r.lo = lo;
                r.hi = hi;
                if (r.hi_i < 0) {
                    r.hi_i = found.hi_i;
                    r.hi_j = found.hi_j;
                }
            }
        }
        if (r.lo == r.hi) ++c_exact[std::min(32, depth)];
        if (S.killers && e.b.hi_i >= 0 && e.b.hi_j >= 0) {  // this size's killer cards
            const int dd = std::min(32, depth);
            const Frame& F = frames[dd];  // (as expand indexes its work space)
            if (C.nmax == 1)
                S.killer_max[dd].store(F.rows[e.b.hi_i] + 1, std::memory_order_relaxed);
            if (C.nmin == 1)
                S.killer_min[dd].store(F.cols[e.b.hi_j] + 1, std::memory_order_relaxed);
        }
        S.tt.put(key, depth, r);
        return r;
    }

    // Two players with two cards each: the four cells played out exactly and the 2x2 game
    // solved in closed form. Cheaper than a table lookup, and it keeps the table for deeper
    // positions.
    Bounds exact2(const Table& t, const Hands& hs) {
        ++c_nodes;
        if (S.node_limit && S.nodes.load(std::memory_order_relaxed) + c_nodes > S.node_limit)
            S.stopped.store(true);  // (this node is still solved: exact2 is exact)
        int ca[2], cb[2];
        cards_of(hs.h[C.max_side[0]], ca);
        cards_of(hs.h[C.min_side[0]], cb);
        Q v[2][2];
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) {
                Q hi;
                cell(t, hs, &ca[i], &cb[j], -INF, INF, v[i][j], hi);
            }
        Bounds out;
        Q r0 = qmin(v[0][0], v[0][1]), r1 = qmin(v[1][0], v[1][1]);
        Q c0 = qmax(v[0][0], v[1][0]), c1 = qmax(v[0][1], v[1][1]);
        Q best = qmax(r0, r1), worst = qmin(c0, c1);
        out.hi_i = r1 > r0 ? 1 : 0;
        out.hi_j = c1 < c0 ? 1 : 0;
        if (best == worst) {
            out.lo = out.hi = best;
            return out;
        }
        // No pure saddle: both sides mix, v = (ad - bc) / (a - b - c + d).
        Q den = v[0][0] - v[0][1] - v[1][0] + v[1][1];
        out.lo = out.hi = (v[0][0] * v[1][1] - v[0][1] * v[1][0]) / den;
        return out;
    }

    // Safety (solver/search/safety.py): can seat p make sure of taking no head for the rest of
    // the round, whatever the other seats play (as one side, knowing everything) and choose?
    // A pure question: a mixed strategy takes no head for sure only if each card it plays does,
    // so p needs one card whose every reply leads to a safe position (and, at its own row
    // choices, one safe option; at the others', every option safe). Answers go to the table
    // under the position's key salted by p (value 0: safe, 1: not), at the position's depth.
    // False when a limit stopped the search (the caller then reads stopped, not the answer).
    bool safe(const Table& t, const Hands& hs, int p) {
        if (hs.h[0] == 0) return true;
        int depth = popcount128(hs.h[0]);
        int n = hs.n;
        if (depth == 1) {
            ++c_nodes;
            int fin[MAXP][2];
            Hands empty = last_turn(hs, fin);
            return turn_safe(t, fin, n, 0, empty, p);
        }
        Key key = make_key(C.R, t, hs);
        key.a ^= mix64(0x5afe5afe00ULL + u64(p));
        key.b ^= mix64(0xa5a5a5a500ULL + u64(p));
        Bounds found;
        int hint = -1;
        if (S.tt.get(key, depth, found) && found.lo == found.hi) {
            ++c_hits;
            return is_zero(found.lo);
        }
        if (S.stopped.load(std::memory_order_relaxed)) return false;
        tick();
        ++c_exp[std::min(32, depth)];
        if (found.hi_i >= 0) hint = found.hi_i;
        int mine[128];
        int nm = cards_of(hs.h[p], mine);
        int others[MAXP], no = 0;
        for (int q = 0; q < n; ++q)
            if (q != p) others[no++] = q;
        Frame& F = frames[std::min(depth, 33)];
        std::vector<int>& replies = F.cols;
        int nr = actions(hs, others, no, replies);
        std::vector<int>& order = F.order_r;
        order.resize(nm);
        for (int i = 0; i < nm; ++i) order[i] = i;
        if (hint >= 0 && hint < nm) std::swap(order[0], order[hint]);
        int killer = 0;  // the reply that refuted the last card goes first
        int cards[MAXP], plays[MAXP][2];
        for (int i : order) {
            bool ok = true;
            for (int r = 0; r < nr && ok; ++r) {
                int jr = r == 0 ? killer : (r == killer ? 0 : r);
                cards[p] = mine[i];
                for (int k = 0; k < no; ++k) cards[others[k]] = replies[jr * no + k];
                Hands after = hs;
                for (int q = 0; q < n; ++q) after.h[q] &= ~(u128(1) << cards[q]);
                reveal(cards, n, plays);
                if (!turn_safe(t, plays, n, 0, after, p)) {
                    ok = false;
                    killer = jr;
                }
                if (S.stopped.load(std::memory_order_relaxed)) return false;
            }
            if (ok) {
                Bounds b;
                b.lo = b.hi = Q(0);
                b.hi_i = i;
                b.hi_j = 0;
                S.tt.put(key, depth, b);
                return true;
            }
        }
        Bounds b;
        b.lo = b.hi = Q(1);
        S.tt.put(key, depth, b);
        return false;
    }

    // The rest of a turn for safe(): the cards of plays[idx..] placed in order.
    bool turn_safe(Table table, int (*plays)[2], int np, int idx, const Hands& after, int p) {
        while (idx < np) {
            int card = plays[idx][0], q = plays[idx][1];
            int taken = place_forced(C.R, table, card);
            if (taken >= 0) {
                if (taken > 0 && q == p) return false;
                ++idx;
                continue;
            }
            Opt opts[MAXROWS];
            bool choice = false;
            int no = place(C.R, table, card, opts, &choice);
            for (int k = 0; k < no; ++k) {
                bool ok = !(q == p && opts[k].taken > 0) &&
                          turn_safe(opts[k].t, plays, np, idx + 1, after, p);
                if (q == p && ok) return true;    // p's own choice: one safe option will do
                if (q != p && !ok) return false;  // another's: every option must be safe
            }
            return q != p;
        }
        return safe(table, after, p);
    }

    void cell(const Table& t, const Hands& hs, const int* a, const int* b, Q alpha, Q beta,
              Q& lo, Q& hi) {
        int n = hs.n;
        int cards[MAXP];
        for (int k = 0; k < C.nmax; ++k) cards[C.max_side[k]] = a[k];
        for (int k = 0; k < C.nmin; ++k) cards[C.min_side[k]] = b[k];
        Hands after = hs;
        for (int p = 0; p < n; ++p) after.h[p] &= ~(u128(1) << cards[p]);
        int plays[MAXP][2];
        reveal(cards, n, plays);
        turn(t, plays, n, 0, after, alpha, beta, lo, hi);
    }

    void turn(Table table, int (*plays)[2], int np, int idx, const Hands& after, Q alpha, Q beta,
              Q& rlo, Q& rhi) {
        i64 imm = 0;
        while (idx < np) {
            int card = plays[idx][0], p = plays[idx][1];
            int taken = place_forced(C.R, table, card);
            if (taken >= 0) {
                if (taken) {
                    i64 d = i64(C.w[p]) * taken;
                    imm += d;
                    alpha = alpha - Q(d);
                    beta = beta - Q(d);
                }
                ++idx;
                continue;
            }
            // The owner's row choice: a max or min node inside the turn (alpha-beta).
            Opt opts[MAXROWS];
            bool choice = false;
            int no = place(C.R, table, card, opts, &choice);
            int last = no - 1;
            Q bl, bh;
            if (C.maximiser[p]) {
                bl = -INF;
                bh = -INF;
                for (int k = 0; k < no; ++k) {
                    Q d(i64(C.w[p]) * opts[k].taken);
                    Q a2 = alpha > bl ? alpha : bl;
                    Q lo, hi;
                    turn(opts[k].t, plays, np, idx + 1, after, a2 - d, beta - d, lo, hi);
                    lo = lo + d;
                    hi = hi + d;
                    if (lo > bl) bl = lo;
                    if (hi > bh) bh = hi;
                    if (bl >= beta) {
                        if (k < last) bh = INF;
                        break;
                    }
                }
            } else {
                bl = INF;
                bh = INF;
                for (int k = 0; k < no; ++k) {
                    Q d(i64(C.w[p]) * opts[k].taken);
                    Q b2 = beta < bh ? beta : bh;
                    Q lo, hi;
                    turn(opts[k].t, plays, np, idx + 1, after, alpha - d, b2 - d, lo, hi);
                    lo = lo + d;
                    hi = hi + d;
                    if (lo < bl) bl = lo;
                    if (hi < bh) bh = hi;
                    if (bh <= alpha) {
                        if (k < last) bl = -INF;
                        break;
                    }
                }
            }
            rlo = Q(imm) + bl;
            rhi = Q(imm) + bh;
            return;
        }
        if (after.h[0] == 0) {
            rlo = rhi = Q(imm);
            return;
        }
        if (popcount128(after.h[0]) == 1) {
            // The last turn: forced but for row choices, played out directly.
            ++c_nodes;
            int n = after.n;
            int fin[MAXP][2];
            Hands empty = last_turn(after, fin);
            Q lo, hi;
            turn(table, fin, n, 0, empty, -INF, INF, lo, hi);
            rlo = rhi = Q(imm) + lo;
            return;
        }
        Bounds e = value(table, after, alpha, beta);
        rlo = Q(imm) + e.lo;
        rhi = Q(imm) + e.hi;
    }

    // The stage game of a position (solver/search.py Search._expand). With want_strategies the
    // window is the full one and optimal strategies are returned when the value is exact.
    Expanded expand(const Table& t, const Hands& hs, Q alpha, Q beta, const Bounds* prev,
                    bool want_strategies) {
        tick();
        int dd = std::min(32, popcount128(hs.h[0]));
        ++c_exp[dd];
        Expanded out;
        Q clo, chi;
        static_bounds(t, hs, clo, chi);
        Q slo = clo, shi = chi;
        if (prev) {
            slo = qmax(slo, prev->lo);
            shi = qmin(shi, prev->hi);
        }
        // Work space of this level (each level down has fewer cards: no two live at once).
        Frame& F = frames[std::min(dd, 33)];
        std::vector<int>& rows = F.rows;
        std::vector<int>& cols = F.cols;
        int m = actions(hs, C.max_side, C.nmax, rows);
        int n = actions(hs, C.min_side, C.nmin, cols);
        std::vector<int>& order_r = F.order_r;
        std::vector<int>& order_c = F.order_c;
        order_r.resize(m);
        order_c.resize(n);
        for (int i = 0; i < m; ++i) order_r[i] = i;
        for (int j = 0; j < n; ++j) order_c[j] = j;
        if (S.killers && (!prev || prev->hi_i < 0)) {  // no hint: the killer cards first
            auto killer_first = [](std::vector<int>& order, const std::vector<int>& acts,
                                   int card) {
                for (size_t i = 0; i < order.size(); ++i)
                    if (acts[i] + 1 == card) {
                        std::swap(order[0], order[i]);
                        return;
                    }
            };
            if (C.nmax == 1)
                killer_first(order_r, rows, S.killer_max[dd].load(std::memory_order_relaxed));
            if (C.nmin == 1)
                killer_first(order_c, cols, S.killer_min[dd].load(std::memory_order_relaxed));
        }
        if (prev && prev->hi_i >= 0 && prev->hi_i < m && prev->hi_j < n) {
            auto front = [](std::vector<int>& v, int x) {
                auto it = std::find(v.begin(), v.end(), x);
                v.erase(it);
                v.insert(v.begin(), x);
            };
            front(order_r, prev->hi_i);
            front(order_c, prev->hi_j);
        }
        FlatMat lo_m(m, n, F.lo, clo), hi_m(m, n, F.hi, chi);
        // With threads > 1, the cells of a phase are shared out among threads (young brothers
        // wait: the first row's cells in parallel, then the other rows, each on one thread);
        // every thread keeps its own searcher and work space, the table is shared. That is done
        // on the main thread's path wherever no parallel section is running yet (the root, and
        // below it the eldest brother that the root searches alone first), for positions of at
        // least PAR_DEPTH cards a hand; elsewhere the same loops run on one thread.
        // Below that, a thread of the pool offers its position's loops to the others while one
        // of them waits for work (NEST_DEPTH cards a hand or more): the thread whose task runs
        // long at the end of a loop gets help inside it.
        const bool top = is_main && S.want_threads > 1 && dd >= PAR_DEPTH && m * n > 1 &&
                         !S.threads_running.load();
        const bool nested = !top && in_pool && dd >= NEST_DEPTH && m * n > 1 &&
                            S.pool_on.load(std::memory_order_relaxed) &&
                            S.idle.load(std::memory_order_relaxed) > 0;
        const bool par = top || nested;
        const bool at_root = is_main && dd == S.root_depth;
        auto root_phase = [&](int phase, int total) {
            if (!at_root) return;
            S.root_done.store(0);
            S.root_total.store(total);
            S.root_phase.store(phase);
        };
        auto root_step = [&]() {
            if (at_root) S.root_done.fetch_add(1, std::memory_order_relaxed);
        };
        std::mutex mu;  // guards best, worst, best_i, best_j, the flags (cells are owned)
        auto probe_with = [&](Searcher& sr, int i, int j, Q a, Q b, Q& lo, Q& hi) {
            lo = lo_m[i][j];
            hi = hi_m[i][j];
            if (lo < hi && hi > a && lo < b) {
                Q glo, ghi;
                sr.cell(t, hs, &rows[i * C.nmax], &cols[j * C.nmin], a, b, glo, ghi);
                lo = qmax(lo, glo);
                hi = qmin(hi, ghi);
                lo_m[i][j] = lo;
                hi_m[i][j] = hi;
            }
        };
        auto probe = [&](int i, int j, Q a, Q b, Q& lo, Q& hi) {
            probe_with(*this, i, j, a, b, lo, hi);
        };
        // Run task(searcher, k) for k = 0..count-1: in order here, or pulled by several threads.
        auto par_for = [&](int count, const std::function<bool(Searcher&, int)>& task) {
            if (!par || count < 2) {
                for (int k = 0; k < count; ++k)
                    if (!task(*this, k)) break;
                return;
            }
            Job J;
            J.task = &task;
            J.count = count;
            J.depth = dd;
            J.nested = !top;
            J.halt_flag = halt_flag;
            J.account = account;
            if (!top) S.nested_loops.fetch_add(1, std::memory_order_relaxed);
            if (top) {
                S.tt.maybe_grow();  // no other thread runs between two parallel sections
                S.threads_running.store(true);
                S.pool_on.store(true);
            }
            {
                std::lock_guard<std::mutex> g(S.jobs_mu);
                S.jobs.push_back(&J);
            }
            std::vector<std::thread> ths;
            std::vector<std::exception_ptr> errs(S.want_threads);
            if (top)
                for (int w = 1; w < S.want_threads; ++w)
                    ths.emplace_back([&, w]() {
                        S.active.fetch_add(1);
                        try {
                            Searcher sr(S, w);
                            sr.in_pool = true;
                            sr.wait_if_paused();  // (before any access to the table)
                            sr.help_until_done(J, dd + 1);
                            sr.flush();
                        } catch (...) {
                            errs[w] = std::current_exception();
                            J.halt.store(true);
                        }
                        S.active.fetch_sub(1);
                    });
            // This thread's share: claim tasks until none is left...
            while (!J.halt.load()) {
                J.running.fetch_add(1);
                int k = J.next.fetch_add(1);
                if (k >= count) {
                    J.running.fetch_sub(1);
                    break;
                }
                run_task(J, k);
            }
            {
                std::lock_guard<std::mutex> g(S.jobs_mu);
                S.jobs.erase(std::find(S.jobs.begin(), S.jobs.end(), &J));
            }
            // ... then help inside the tasks still running (the other threads may be on long
            // ones: the main thread keeps reporting progress and reading Ctrl-C meanwhile).
            try {
                help_until_done(J, dd);
            } catch (...) {
                J.halt.store(true);
                for (auto& th : ths) th.join();
                if (top) {
                    S.pool_on.store(false);
                    S.threads_running.store(false);
                }
                throw;
            }
            for (auto& th : ths) th.join();
            if (top) {
                S.pool_on.store(false);
                S.threads_running.store(false);
            }
            if (J.err) std::rethrow_exception(J.err);
            for (auto& e : errs)
                if (e) std::rethrow_exception(e);
        };
        // Serialised bounds: the max side committing first gives a lower bound (pure maxmin),
        // the min side first an upper bound (pure minmax); alpha-beta on each. Which runs first
        // is decided by the first cell: one at or below alpha suggests a fail low, proven by
        // the min phase alone (one column at or below alpha), so it goes first; otherwise the
        // max phase (as the Python search always does). Either phase stops early once the
        // bounds meet (a saddle) or leave the window.
        Q best = -INF, worst = INF;
        int best_i = order_r[0], best_j = order_c[0];
        bool max_done = false, min_done = false, cut = false;
        // One row of the max phase, its columns in the order `corder` (killer moves to front).
        // False when the phase is decided (a cutoff or a saddle).
        auto row_task = [&](Searcher& sr, int i, std::vector<int>& corder) -> bool {
            Q row_min = INF;
            for (size_t jj = 0; jj < corder.size(); ++jj) {
                int j = corder[jj];
                Q bar;
                {
                    std::lock_guard<std::mutex> g(mu);
                    if (cut) return false;
                    bar = qmax(alpha, best);
                }
                Q lo, hi;
                probe_with(sr, i, j, bar, qmin(beta, row_min), lo, hi);
                if (hi <= bar) {
                    row_min = -INF;
                    if (jj != 0) {  // killer: the column that refuted this row goes first
                        corder.erase(corder.begin() + jj);
                        corder.insert(corder.begin(), j);
                    }
                    break;
                }
                row_min = qmin(row_min, lo);
            }
            root_step();
            std::lock_guard<std::mutex> g(mu);
            if (row_min > best) {
                best = row_min;
                best_i = i;
                publish(hs, best, INF);
            }
            if (best >= beta || best >= worst) cut = true;
            return !cut;
        };
        auto col_task = [&](Searcher& sr, int j, std::vector<int>& rord) -> bool {
            Q col_max = -INF;
            rord = order_r;
            std::stable_sort(rord.begin(), rord.end(),
                             [&](int x, int y) { return lo_m[x][j] > lo_m[y][j]; });
            for (int i : rord) {
                Q bar;
                {
                    std::lock_guard<std::mutex> g(mu);
                    if (cut) return false;
                    bar = qmin(beta, worst);
                }
                Q lo, hi;
                probe_with(sr, i, j, qmax(alpha, col_max), bar, lo, hi);
                if (lo >= bar) {
                    col_max = INF;
                    break;
                }
                col_max = qmax(col_max, hi);
            }
            root_step();
            std::lock_guard<std::mutex> g(mu);
            if (col_max < worst) {
                worst = col_max;
                best_j = j;
                publish(hs, -INF, worst);
            }
            if (worst <= alpha || worst <= best) cut = true;
            return !cut;
        };
        // returns true when the node is decided (a cutoff): `out` holds the result
        auto max_phase = [&]() -> bool {
            if (min_done) {
                // Rows most likely to reach the upper bound first: high in the best column.
                std::vector<Q>& rowmin = F.colmax;
                rowmin.resize(m);
                for (int i = 0; i < m; ++i) {
                    Q mn = hi_m[i][0];
                    for (int j = 1; j < n; ++j) mn = qmin(mn, hi_m[i][j]);
                    rowmin[i] = mn;
                }
                std::stable_sort(order_r.begin(), order_r.end(), [&](int x, int y) {
                    int c = cmp(hi_m[x][best_j], hi_m[y][best_j]);
                    if (c != 0) return c > 0;
                    return rowmin[x] > rowmin[y];
                });
                auto it = std::find(order_c.begin(), order_c.end(), best_j);
                order_c.erase(it);
                order_c.insert(order_c.begin(), best_j);
            }
            cut = false;
            root_phase(1, m);
            F.rcopy = order_r;
            if (!par) {
                for (int i : F.rcopy)
                    if (!row_task(*this, i, order_c)) break;
            } else {
                // The first row's cells in parallel (its minimum bounds every later row)...
                int i0 = F.rcopy[0];
                Q row_min = INF;
                bool refuted = false;
                std::vector<int> first = order_c;
                par_for(n, [&](Searcher& sr, int k) -> bool {
                    int j = first[k];
                    Q rm;
                    {
                        std::lock_guard<std::mutex> g(mu);
                        if (refuted) return false;
                        rm = row_min;
                    }
                    Q lo, hi;
                    probe_with(sr, i0, j, alpha, qmin(beta, rm), lo, hi);
                    std::lock_guard<std::mutex> g(mu);
                    if (hi <= alpha) {
                        refuted = true;
                        return false;
                    }
                    row_min = qmin(row_min, lo);
                    return true;
                });
                root_step();
                if (!refuted && row_min > best) {
                    best = row_min;
                    best_i = i0;
                    publish(hs, best, INF);
                }
                if (best >= beta || best >= worst) cut = true;
                // ... then the other rows, one per thread, each with its own column order.
                if (!cut) {
                    std::vector<std::vector<int>> orders(MAX_WORKERS);  // (each its thread's)
                    par_for(m - 1, [&](Searcher& sr, int k) -> bool {
                        std::vector<int>& own = orders[sr.worker];
                        if (own.empty()) own = order_c;
                        return row_task(sr, F.rcopy[k + 1], own);
                    });
                }
            }
            if (best >= beta) {
                out.b.lo = qmax(best, slo);
                out.b.hi = qmin(worst, shi);
                out.b.hi_i = best_i;
                out.b.hi_j = min_done ? best_j : order_c[0];
                return true;
            }
            max_done = true;
            return false;
        };
        auto min_phase = [&]() -> bool {
            if (max_done) {
                // A pure saddle, if any, lies in the column where the best row has its minimum.
                const Q* brow = lo_m[best_i];
                std::vector<Q>& colmax = F.colmax;
                colmax.resize(n);
                for (int j = 0; j < n; ++j) {
                    Q mx = lo_m[0][j];
                    for (int i = 1; i < m; ++i) mx = qmax(mx, lo_m[i][j]);
                    colmax[j] = mx;
                }
                std::stable_sort(order_c.begin(), order_c.end(), [&](int x, int y) {
                    int c = cmp(brow[x], brow[y]);
                    if (c != 0) return c < 0;
                    return colmax[x] < colmax[y];
                });
            }
            cut = false;
            root_phase(2, n);
            F.ccopy = order_c;
            if (!par) {
                for (int j : F.ccopy)
                    if (!col_task(*this, j, F.rord)) break;
            } else {
                int j0 = F.ccopy[0];
                Q col_max = -INF;
                bool refuted = false;
                std::vector<int> first = order_r;
                std::stable_sort(first.begin(), first.end(),
                                 [&](int x, int y) { return lo_m[x][j0] > lo_m[y][j0]; });
                par_for(m, [&](Searcher& sr, int k) -> bool {
                    int i = first[k];
                    Q cm;
                    {
                        std::lock_guard<std::mutex> g(mu);
                        if (refuted) return false;
                        cm = col_max;
                    }
                    Q lo, hi;
                    probe_with(sr, i, j0, qmax(alpha, cm), beta, lo, hi);
                    std::lock_guard<std::mutex> g(mu);
                    if (lo >= beta) {
                        refuted = true;
                        return false;
                    }
                    col_max = qmax(col_max, hi);
                    return true;
                });
                root_step();
                if (!refuted && col_max < worst) {
                    worst = col_max;
                    best_j = j0;
                    publish(hs, -INF, worst);
                }
                if (worst <= alpha || worst <= best) cut = true;
                if (!cut) {
                    std::vector<std::vector<int>> rords(MAX_WORKERS);
                    par_for(n - 1, [&](Searcher& sr, int k) -> bool {
                        return col_task(sr, F.ccopy[k + 1], rords[sr.worker]);
                    });
                }
            }
            if (worst <= alpha) {
                out.b.lo = qmax(best, slo);
                out.b.hi = qmin(worst, shi);
                out.b.hi_i = best_i;
                out.b.hi_j = best_j;
                return true;
            }
            min_done = true;
            return false;
        };
        {
            Q lo, hi;
            probe(order_r[0], order_c[0], alpha, beta, lo, hi);
            if (hi <= alpha) {
                if (min_phase() || max_phase()) return out;
            } else {
                if (max_phase() || min_phase()) return out;
            }
        }
        out.b.hi_i = best_i;
        out.b.hi_j = best_j;
        if (best == worst) {
            ++c_saddles;
            out.b.lo = out.b.hi = best;
            if (want_strategies) {
                out.x.assign(m, Q(0));
                out.y.assign(n, Q(0));
                out.x[best_i] = Q(1);
                out.y[best_j] = Q(1);
                out.has_strategies = true;
            }
            return out;
        }
        // No pure saddle: refine the cells that matter to the bound games.
        while (true) {
            GameSol sol_lo = solve_game(lo_m.mat());
            GameSol sol_hi = solve_game(hi_m.mat());
            ++c_lps;
            Q lo_v = qmax(qmax(best, slo), sol_lo.value);
            Q hi_v = qmin(qmin(worst, shi), sol_hi.value);
            publish(hs, lo_v, hi_v);
            if (lo_v >= beta || hi_v <= alpha || halted()) {
                out.b.lo = lo_v;
                out.b.hi = hi_v;
                return out;
            }
            if (sol_lo.value == sol_hi.value) {
                out.b.lo = out.b.hi = sol_lo.value;
                if (want_strategies) {
                    out.x = sol_lo.x;
                    out.y = sol_hi.y;
                    out.has_strategies = true;
                }
                return out;
            }
            std::vector<char> sr(m, 0), sc(n, 0);
            for (int i = 0; i < m; ++i)
                if (!is_zero(sol_lo.x[i]) || !is_zero(sol_hi.x[i])) sr[i] = 1;
            for (int j = 0; j < n; ++j)
                if (!is_zero(sol_lo.y[j]) || !is_zero(sol_hi.y[j])) sc[j] = 1;
            std::vector<std::pair<int, int>> todo;
            for (int i = 0; i < m; ++i)
                if (sr[i])
                    for (int j = 0; j < n; ++j)
                        if (sc[j] && lo_m[i][j] != hi_m[i][j]) todo.emplace_back(i, j);
            if (todo.empty())
                for (int i = 0; i < m; ++i)
                    for (int j = 0; j < n; ++j)
                        if (lo_m[i][j] != hi_m[i][j]) todo.emplace_back(i, j);
            std::atomic<bool> changed{false};
            root_phase(3, int(todo.size()));
            par_for(int(todo.size()), [&](Searcher& sr, int k) -> bool {
                auto [i, j] = todo[k];
                Q b0 = lo_m[i][j], b1 = hi_m[i][j];
                Q lo, hi;
                probe_with(sr, i, j, lo_v, hi_v, lo, hi);
                if (lo != b0 || hi != b1) changed.store(true);
                root_step();
                return true;
            });
            if (!changed.load())
                par_for(int(todo.size()), [&](Searcher& sr, int k) -> bool {
                    Q lo, hi;
                    probe_with(sr, todo[k].first, todo[k].second, -INF, INF, lo, hi);
                    return true;
                });
        }
    }
};

// ---------------------------------------------------------------------------------------------
// The best reply to a fixed bot: solver/botgap.py against_bot restated for speed (the Python
// one stays the reference; tests/solver/test_botgap.py compares the two on random positions).
//
// Seat `me` maximises the expected diff (the bot's heads minus its own, to the end of the
// round) against a bot whose every decision is a known distribution (take6.play.bots):
// * random: each card of its hand with equal probability, each row offered with equal
//   probability;
// * cheapest: cards as random; a row choice takes the cheapest option (cheapest_row: fewest
//   heads, then fewest cards, then the lowest row number; most of both when the most heads win);
// * safe: the card of least immediate cost (immediate_cost: the heads it would take placed
//   alone, a too-low card counting its cheapest row), the lower card on ties; rows as cheapest.
// No mixing is needed against a fixed policy, so this is an expectimax over the placement rule
// above, with a table of exact values between turns. Rows carry their number in the reference's
// order (Row::pad), which the bots' tie-breaks read. The table's key: for random the canonical
// key (make_key; random is blind to every renaming that key forgets); for the other two the
// live cards in order as well, but each row with its true length (their tie-breaks read it),
// and its number only where the value read it. A row's number decides a bot's row choice only
// on a tie (two options of equal heads and length): cheapest() counts those (`ties`). A
// position whose search met no such tie, and whose every stored position below it was met by
// the key without numbers, is stored by that key: any position that differs from it only in
// the rows' numbers makes every bot choice the same way, move for move (the tie-breaks are never
// reached), so it has the same value. Any other position is stored by the key with the numbers
// and counts as a tie for the positions above it. Measured on the deal 8 0 against cheapest:
// 9.8 M positions instead of 19.4 M, 33 s of CPU instead of 42.

enum BotKind { BOT_RANDOM = 0, BOT_CHEAPEST = 1, BOT_SAFE = 2 };

struct ReplyStopped {};

struct ReplyTable {
    struct E {
        u64 a, b;  // the key (b's top byte: the position's cards a hand)
        i64 n, d;  // d > 0: the value n/d; d == 0: an empty slot; d < 0: big[n]
    };
    // Shards chosen by the top bits of the key's first half, each an open-addressing table
    // (linear probing, a power of two of slots) that doubles on its own: while one grows only it
    // is held twice, so the slots can fill nearly the whole budget (one table doubling as a
    // whole could use a third of it at most, both copies live while it grows). Threads share
    // the table: a spin lock a shard (held for one probe sequence, or while the shard grows),
    // a mutex for the budget's bookkeeping and one for the long values aside.
    struct Shard {
        std::vector<E> e;
        u64 mask = 0, filled = 0;
    };
    std::vector<Shard> sh;
    std::unique_ptr<std::atomic<bool>[]> locks;
    std::vector<std::shared_ptr<const mpq_class>> big;
    std::mutex grow_mu, big_mu;
    std::atomic<u64> filled{0}, slots{0}, replaced{0};  // (replaced: once the budget was reached)
    u64 budget = 0;
    int bits = 0;                 // 2^bits shards
    std::atomic<bool> full{false};  // the budget was reached: new entries replace old ones
    bool concurrent = false;        // threads share it now (set while they run)
    static constexpr u64 REPLACE_WINDOW = 8;

    struct Hold {  // a shard's spin lock, held while in scope
        std::atomic<bool>& l;
        explicit Hold(std::atomic<bool>& x) : l(x) {
            while (l.exchange(true, std::memory_order_acquire))
                while (l.load(std::memory_order_relaxed)) std::this_thread::yield();
        }
        ~Hold() { l.store(false, std::memory_order_release); }
    };

    void init(u64 bytes) {
        budget = bytes;
        const u64 first = 8;  // a shard's first slots (then doubling as it fills)
        bits = 0;
        while (bits < 8 && (u64(2) << bits) * first * sizeof(E) * 2 <= bytes) ++bits;
        sh.assign(size_t(1) << bits, Shard());
        locks.reset(new std::atomic<bool>[size_t(1) << bits]);
        for (size_t i = 0; i < sh.size(); ++i) {
            sh[i].e.assign(first, E{0, 0, 0, 0});
            sh[i].mask = first - 1;
            locks[i].store(false);
        }
        slots = first << bits;
        filled = 0;
        replaced = 0;
        full = false;
        big.clear();
    }
    size_t shard_of(u64 a) const { return bits ? size_t(a >> (64 - bits)) : 0; }
    static u64 tag(u64 b, int depth) { return (b & ~(u64(0xff) << 56)) | (u64(depth) << 56); }
    // The value stored under either of two keys of one first half (k, or k.a with second half
    // b2): 1 or 2 for the one found, 0 for neither.
    int get_either(const Key& k, u64 b2, int depth, Q& v) {
        u64 b = tag(k.b, depth), c = tag(b2, depth);
        size_t si = shard_of(k.a);
        Hold hold(locks[si]);
        const Shard& s = sh[si];
        for (u64 i = k.a & s.mask;; i = (i + 1) & s.mask) {
            const E& x = s.e[i];
            if (x.d == 0) return 0;
            if (x.a == k.a && (x.b == b || x.b == c)) {
                if (x.d > 0) {
                    v.n = x.n;
                    v.d = x.d;
                    v.b.reset();
                } else {
                    v = Q();
                    std::lock_guard<std::mutex> g(big_mu);
                    v.b = big[size_t(x.n)];
                }
                return x.b == b ? 1 : 2;
            }
        }
    }
    bool get(const Key& k, int depth, Q& v) { return get_either(k, k.b, depth, v) != 0; }
    static void insert(std::vector<E>& into, u64 m, const E& x) {
        for (u64 i = x.a & m;; i = (i + 1) & m)
            if (into[i].d == 0) {
                into[i] = x;
                return;
            }
    }
    // Re-place every entry of shard s into n slots (its lock held).
    void grow(Shard& s, u64 n) {
        std::vector<E> ne(n, E{0, 0, 0, 0});
        for (const E& x : s.e)
            if (x.d != 0) insert(ne, n - 1, x);
        s.e.swap(ne);
        s.mask = n - 1;
    }
    // Room for one more slot-doubling of n slots within the budget (both copies counted)?
    bool reserve(u64 n) {
        std::lock_guard<std::mutex> g(grow_mu);
        if ((slots + 2 * n) * sizeof(E) > budget) return false;
        slots += n;
        return true;
    }
    void put(const Key& k, int depth, const Q& v) {
        size_t si = shard_of(k.a);
        Hold hold(locks[si]);
        Shard& s = sh[si];
        E x{k.a, tag(k.b, depth), v.n, v.d};
        u64 n = s.mask + 1;
        if (concurrent)  // another thread may have stored it meanwhile (one thread: never)
            for (u64 i = k.a & s.mask; s.e[i].d != 0; i = (i + 1) & s.mask)
                if (s.e[i].a == x.a && s.e[i].b == x.b) return;
        while ((s.filled + 1) * 10 > n * 7) {  // past 70% full
            if (reserve(n)) {
                try {
                    grow(s, 2 * n);
                } catch (std::bad_alloc&) {
                    std::lock_guard<std::mutex> g(grow_mu);
                    slots -= n;
                    throw;
                }
                n = s.mask + 1;
                continue;
            }
            full = true;
            if ((s.filled + 1) * 20 <= n * 17) break;  // fill it to 85%
            // Then replace: among the key's probe sequence up to its first empty slot (a
            // window of a few slots), the entry of fewest cards a hand (the first of them), if it
            // has no more than this one. The slot stays occupied, so no other key's probe
            // sequence changes, and a lookup of this key reaches it.
            u64 at = k.a & s.mask, pick = at;
            int low = 256;
            for (u64 j = 0; j < REPLACE_WINDOW && s.e[at].d != 0; ++j, at = (at + 1) & s.mask) {
                int d = int(s.e[at].b >> 56);
                if (d < low) {
                    low = d;
                    pick = at;
                }
            }
            if (low == 256) {  // its first slot is empty: the key takes it up to 95% full
                if ((s.filled + 1) * 20 <= n * 19) break;
                return;
            }
            if (low > depth) return;  // (not stored: searched again when met)
            ++replaced;
            if (s.e[pick].d < 0) {
                std::lock_guard<std::mutex> g(big_mu);
                big[size_t(s.e[pick].n)].reset();
            }
            store(x, v);
            s.e[pick] = x;
            return;
        }
        store(x, v);
        insert(s.e, s.mask, x);
        ++s.filled;
        ++filled;
    }
    void store(E& x, const Q& v) {
        if (v.b) {
            std::lock_guard<std::mutex> g(big_mu);
            x.n = i64(big.size());
            x.d = -1;
            big.push_back(v.b);
        }
    }
    u64 bytes() const { return slots * sizeof(E); }
};

struct BotReply {
    Rules R;
    int me = 0, bot = 1, kind = BOT_RANDOM;
    int sign = 1;  // 1 when the fewest heads win, -1 when the most do (a cheapest row's order)
    std::shared_ptr<ReplyTable> shared = std::make_shared<ReplyTable>();
    ReplyTable& tab = *shared;  // (one table for every thread of a run)
    u64 nodes = 0, ticks = 0;
    u64 ties = 0;  // bot row choices decided by the rows' numbers (their counter only moves)
    double deadline = 0;  // 0: none
    bool interrupted = false, stopped = false;
    void (*poll)(void*) = nullptr;  // called every 1024 positions; sets stopped to stop
    void* poll_ctx = nullptr;
    std::atomic<bool> halt{false};  // set to stop every thread of a run
    std::atomic<bool>* halted = &halt;  // (a helper thread's: its main reply's)
    std::atomic<int> cards_done{0};     // first cards valued by the threads of a cards() call

    BotReply() = default;
    // A helper for another thread: the same rules and bot, the same table and stop flag.
    explicit BotReply(BotReply& main)
        : R(main.R), me(main.me), bot(main.bot), kind(main.kind), sign(main.sign),
          shared(main.shared), tab(*shared), halted(&main.halt) {}

    // The key without the rows' numbers (for random the canonical key).
    Key key(const Table& t, const Hands& hs) const {
        if (kind == BOT_RANDOM) return make_key(R, t, hs);
        Hasher H;
        H.add(u64(6) << 56);
        if (R.profi) {
            for (int i = 0; i < t.n; ++i) {
                const Row& r = t.r[i];
                H.add((u64(r.last) << 40) | (u64(r.first) << 32) | (u64(r.len) << 24) |
                      u64(uint32_t(r.heads) & 0xffffff));
            }
            for (int p = 0; p < hs.n; ++p) {
                H.add(u64(hs.h[p]));
                H.add(u64(hs.h[p] >> 64));
            }
            return Key{H.a, H.b};
        }
        // The live cards in ascending order: a hand card as its owner and heads, a row (at its
        // last card) as its length and heads.
        u128 all = 0;
        for (int p = 0; p < hs.n; ++p) all |= hs.h[p];
        auto row_word = [](const Row& r) {
            return (u64(2) << 56) | (u64(r.len) << 32) | u64(uint32_t(r.heads));
        };
        int ri = 0;
        u128 rest = all;
        while (rest) {
            int c = ctz128(rest);
            rest &= rest - 1;
            while (ri < t.n && t.r[ri].last < c) H.add(row_word(t.r[ri++]));
            int owner = ((hs.h[0] >> c) & 1) ? 0 : 1;
            H.add((u64(1) << 56) | (u64(owner) << 8) | u64(R.heads[c]));
        }
        for (; ri < t.n; ++ri) H.add(row_word(t.r[ri]));
        return Key{H.a, H.b};
    }

    // The key with the rows' numbers: the same first half (so one probe sequence finds either),
    // the second mixed with the numbers in the rows' order (the order the key above lists them).
    static Key with_numbers(const Key& k, const Table& t) {
        u64 sig = 0x5851f42d4c957f2dULL;
        for (int i = 0; i < t.n; ++i) sig = mix64(sig ^ (u64(t.r[i].pad) + 1));
        return Key{k.a, k.b ^ sig};
    }

    void tick() {
        if ((++ticks & 1023) == 0) {
            if (poll) {
                poll(poll_ctx);
                if (stopped) halted->store(true);
            }
            if (halted->load(std::memory_order_relaxed)) throw ReplyStopped();
        }
    }

    // cheapest_row: the option taken by a bot that takes the cheapest row.
    int cheapest(const Table& t, const Opt* opts, int n) {
        int best = 0;
        bool tie = false;
        i64 bk[3] = {0, 0, 0};
        for (int i = 0; i < n; ++i) {
            const Row& r = t.r[opts[i].row];
            i64 k[3] = {0, 0, r.pad};
            if (opts[i].take) {
                k[0] = i64(sign) * r.heads;
                k[1] = i64(sign) * r.len;
            }
            if (i == 0 || std::lexicographical_compare(k, k + 3, bk, bk + 3)) {
                tie = i > 0 && k[0] == bk[0] && k[1] == bk[1];
                best = i;
                std::copy(k, k + 3, bk);
            } else if (k[0] == bk[0] && k[1] == bk[1]) {
                tie = true;
            }
        }
        if (tie) ++ties;
        return best;
    }

    // immediate_cost: the heads `card` would take if it were the only card placed.
    int immediate(const Table& t, int card) const {
        Opt opts[MAXROWS];
        bool choice = false;
        int n = place(R, t, card, opts, &choice);
        int cost = 0;
        for (int i = 0; i < n; ++i) {
            int c = opts[i].take ? t.r[opts[i].row].heads : 0;
            if (i == 0 || c < cost) cost = c;
        }
        return cost;
    }

    // The rest of a turn: cards c[0] < c[1] of seats o[0], o[1], placed from c[k] on.
    Q turn(const Table& t, const int* c, const int* o, int k, int took_me, int took_bot,
           const Hands& after) {
        if (k == 2) {
            ++nodes;
            Q gain(i64(took_bot) - i64(took_me));
            if (after.h[me] == 0) return gain;
            return gain + value(t, after);
        }
        Opt opts[MAXROWS];
        bool choice = false;
        int n = place(R, t, c[k], opts, &choice);
        auto next = [&](const Opt& x) {
            if (o[k] == me) return turn(x.t, c, o, k + 1, took_me + x.taken, took_bot, after);
            return turn(x.t, c, o, k + 1, took_me, took_bot + x.taken, after);
        };
        if (!choice || n == 1) return next(opts[0]);
        if (o[k] == me) {
            Q best = next(opts[0]);
            for (int i = 1; i < n; ++i) best = qmax(best, next(opts[i]));
            return best;
        }
        if (kind == BOT_RANDOM) {
            Q sum = next(opts[0]);
            for (int i = 1; i < n; ++i) sum = sum + next(opts[i]);
            return sum / Q(n);
        }
        return next(opts[cheapest(t, opts, n)]);
    }

    Q play(const Table& t, const Hands& hs, int mine, int theirs) {
        Hands after = hs;
        after.h[me] &= ~(u128(1) << mine);
        after.h[bot] &= ~(u128(1) << theirs);
        int c[2], o[2];
        if (mine < theirs) {
            c[0] = mine, c[1] = theirs, o[0] = me, o[1] = bot;
        } else {
            c[0] = theirs, c[1] = mine, o[0] = bot, o[1] = me;
        }
        return turn(t, c, o, 0, 0, 0, after);
    }

    // The expected diff when `me` plays `card` now and best afterwards.
    Q card_value(const Table& t, const Hands& hs, int card) {
        int theirs[128];
        int nb = cards_of(hs.h[bot], theirs);
        if (nb == 0) return Q(0);  // (never: the hands have equal sizes)
        if (kind == BOT_SAFE) {
            int pick = theirs[0], cost = immediate(t, theirs[0]);
            for (int i = 1; i < nb; ++i) {  // ascending: the lower card wins a tie
                int ci = immediate(t, theirs[i]);
                if (ci < cost) {
                    cost = ci;
                    pick = theirs[i];
                }
            }
            return play(t, hs, card, pick);
        }
        Q sum = play(t, hs, card, theirs[0]);
        for (int i = 1; i < nb; ++i) sum = sum + play(t, hs, card, theirs[i]);
        return sum / Q(nb);
    }

    // The value of a position between turns (both hands non-empty). Positions of one card a
    // hand are not stored (measured at 2 x 7: half the table, no slower); past the memory
    // budget, new positions replace stored ones of fewer cards (ReplyTable::put).
    Q value(const Table& t, const Hands& hs) {
        int depth = popcount128(hs.h[me]);
        bool stored = depth >= 2;
        Key k{0, 0}, kf{0, 0};
        Q v;
        if (stored) {
            if (kind == BOT_RANDOM) {
                k = kf = key(t, hs);
                if (tab.get(k, depth, v)) return v;
            } else {
                kf = key(t, hs);
                k = with_numbers(kf, t);
                int found = tab.get_either(kf, k.b, depth, v);
                if (found == 1) return v;
                if (found == 2) {
                    ++ties;
                    return v;
                }
            }
        }
        const u64 ties0 = ties;
        tick();
        int mine[128];
        int nm = cards_of(hs.h[me], mine);
        Q best = card_value(t, hs, mine[0]);
        for (int i = 1; i < nm; ++i) best = qmax(best, card_value(t, hs, mine[i]));
        if (stored) tab.put(ties == ties0 ? kf : k, depth, best);
        return best;
    }
};

// ---------------------------------------------------------------------------------------------
// Python binding: an opaque search object

PyObject* q_obj(const Q& q) {
    if (!q.b) return Py_BuildValue("(LL)", (long long)q.n, (long long)q.d);
    std::string ns = q.b->get_num().get_str(16), ds = q.b->get_den().get_str(16);
    PyObject* pn = PyLong_FromString(ns.c_str(), nullptr, 16);
    PyObject* pd = PyLong_FromString(ds.c_str(), nullptr, 16);
    if (!pn || !pd) {
        Py_XDECREF(pn);
        Py_XDECREF(pd);
        return nullptr;
    }
    return Py_BuildValue("(NN)", pn, pd);
}

struct SearchObject {
    PyObject_HEAD Shared* shared;
    PyObject* progress;  // callable(nodes, filled, elapsed) or None
    double progress_every;
    double last_progress;
    double started;
    bool interrupted;
    int threads;
    PyObject* ckpt_path;  // bytes (a file system path) or None: the periodic checkpoint
    double ckpt_every;    // seconds between checkpoints during a search
    double ckpt_last;
    int ckpt_depth;       // entries of at least this many cards a hand are written
    unsigned long long ckpt_count;  // checkpoints written during searches
};

struct PollCtx {
    SearchObject* self;
    bool error;  // a Python exception is pending (KeyboardInterrupt, or the callback raised)
};

void poll_main(void* p) {
    PollCtx* ctx = static_cast<PollCtx*>(p);
    SearchObject* self = ctx->self;
    if (ctx->error) return;
    Shared& SH = *self->shared;
    if (SH.tt.filled.load() * 2 > SH.tt.capacity()) {
        if (!SH.threads_running.load()) {
            SH.tt.maybe_grow();
        } else {
            SH.pause.store(true);
            while (SH.paused.load() < SH.active.load()) std::this_thread::yield();
            SH.tt.maybe_grow();
            SH.pause.store(false);
        }
    }
    if (self->ckpt_path != Py_None && self->ckpt_every > 0 &&
        now_s() - self->ckpt_last >= self->ckpt_every) {
        u64 ns = 0, nb = 0;
        std::string err;
        bool ok = save_table(SH, PyBytes_AS_STRING(self->ckpt_path), self->ckpt_depth, ns, nb, err);
        self->ckpt_last = now_s();
        if (!ok) {  // (the search stops rather than go on with nothing saved)
            PyErr_SetString(PyExc_OSError, err.c_str());
            ctx->error = true;
            SH.stopped.store(true);
            return;
        }
        ++self->ckpt_count;
    }
    if (PyErr_CheckSignals() < 0) {
        // Ctrl-C: stop, keep the proven bounds; the wrapper reports them.
        PyErr_Clear();
        self->interrupted = true;
        self->shared->stopped.store(true);
        return;
    }
    if (self->progress && self->progress != Py_None) {
        double t = now_s();
        if (t - self->last_progress >= self->progress_every) {
            self->last_progress = t;
            Shared& S = *self->shared;
            Q root_lo, root_hi;
            {
                std::lock_guard<std::mutex> g(S.root_mu);
                root_lo = S.root_lo;
                root_hi = S.root_hi;
            }
            PyObject* r = PyObject_CallFunction(
                self->progress, "KKKdNN", (unsigned long long)S.nodes.load(),
                (unsigned long long)S.tt.filled.load(), (unsigned long long)S.tt.capacity(),
                t - self->started, q_obj(root_lo), q_obj(root_hi));
            if (!r) {
                if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
                    PyErr_Clear();
                    self->interrupted = true;
                } else {
                    ctx->error = true;
                }
                self->shared->stopped.store(true);
            } else {
                Py_DECREF(r);
            }
        }
    }
}

// Garbage collection: the progress callable may refer back to the search (a cycle that only
// the collector can free, and only if it sees this object's references).
int search_traverse(PyObject* o, visitproc visit, void* arg) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    Py_VISIT(self->progress);
    Py_VISIT(self->ckpt_path);
    return 0;
}

int search_clear(PyObject* o) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    Py_CLEAR(self->progress);
    Py_CLEAR(self->ckpt_path);
    return 0;
}

// Stop the searches started and not collected, and wait for their threads.
void stop_tasks(Shared& S) {
    for (auto& tp : S.tasks) tp->halt.store(true);
    for (auto& tp : S.tasks)
        if (tp->th.joinable()) tp->th.join();
    S.tasks.clear();
    S.threads_running.store(false);
    S.pool_on.store(false);
}

void search_dealloc(PyObject* o) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    PyObject_GC_UnTrack(o);
    if (self->shared) stop_tasks(*self->shared);
    delete self->shared;
    search_clear(o);
    Py_TYPE(o)->tp_free(o);
}

PyTypeObject SearchType = {PyVarObject_HEAD_INIT(nullptr, 0)};

bool read_int_seq(PyObject* seq, int* out, int maxn, int& n, const char* what) {
    PyObject* fast = PySequence_Fast(seq, what);
    if (!fast) return false;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > maxn) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many items (%zd > %d)", what, len, maxn);
        return false;
    }
    for (Py_ssize_t i = 0; i < len; ++i) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return false;
        }
        out[i] = int(v);
    }
    n = int(len);
    Py_DECREF(fast);
    return true;
}

// Search(heads, capacity, profi, tie, weights, max_side, min_side, memory_bytes)
PyObject* search_new(PyTypeObject* type, PyObject* args, PyObject*) {
    PyObject *heads, *weights, *maxs, *mins;
    int capacity, profi, tie;
    unsigned long long memory;
    if (!PyArg_ParseTuple(args, "OiiiOOOK", &heads, &capacity, &profi, &tie, &weights, &maxs, &mins,
                          &memory))
        return nullptr;
    Config cfg;
    std::memset(&cfg, 0, sizeof(cfg));
    int nh = 0;
    int hv[MAXCARD + 1];
    if (!read_int_seq(heads, hv, MAXCARD + 1, nh, "heads")) return nullptr;
    for (int c = 0; c <= MAXCARD; ++c) cfg.R.heads[c] = c < nh ? hv[c] : 0;
    cfg.R.capacity = capacity;
    cfg.R.profi = profi != 0;
    cfg.R.tie = tie;
    int np = 0;
    if (!read_int_seq(weights, cfg.w, MAXP, np, "weights")) return nullptr;
    cfg.players = np;
    if (!read_int_seq(maxs, cfg.max_side, MAXP, cfg.nmax, "max_side")) return nullptr;
    if (!read_int_seq(mins, cfg.min_side, MAXP, cfg.nmin, "min_side")) return nullptr;
    if (np < 1 || cfg.nmax < 1 || cfg.nmin < 1) {
        PyErr_SetString(PyExc_ValueError, "need players on both sides");
        return nullptr;
    }
    for (int k = 0; k < cfg.nmax; ++k) cfg.maximiser[cfg.max_side[k]] = true;
    cfg.wneg = 0;
    cfg.wpos = 0;
    for (int p = 0; p < np; ++p) {
        cfg.wneg = std::min(cfg.wneg, cfg.w[p]);
        cfg.wpos = std::max(cfg.wpos, cfg.w[p]);
    }
    SearchObject* self = reinterpret_cast<SearchObject*>(type->tp_alloc(type, 0));
    if (!self) return nullptr;
    self->shared = new (std::nothrow) Shared();
    if (!self->shared) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    self->shared->cfg = cfg;
    if (!self->shared->tt.init(memory)) {
        Py_DECREF(self);
        PyErr_Format(PyExc_MemoryError, "cannot allocate a transposition table in %llu bytes",
                     memory);
        return nullptr;
    }
    self->progress = Py_None;
    Py_INCREF(Py_None);
    self->progress_every = 1.0;
    self->threads = 1;
    self->ckpt_path = Py_None;
    Py_INCREF(Py_None);
    self->ckpt_every = 0;
    self->ckpt_last = now_s();
    self->ckpt_depth = 2;
    self->ckpt_count = 0;
    return reinterpret_cast<PyObject*>(self);
}

bool read_position(PyObject* rows, PyObject* hands, int players, Table& t, Hands& hs) {
    PyObject* fr = PySequence_Fast(rows, "rows");
    if (!fr) return false;
    Py_ssize_t nr = PySequence_Fast_GET_SIZE(fr);
    if (nr > MAXROWS || nr < 1) {
        Py_DECREF(fr);
        PyErr_Format(PyExc_ValueError, "the native core handles 1..%d rows, got %zd", MAXROWS, nr);
        return false;
    }
    t.n = int(nr);
    for (Py_ssize_t i = 0; i < nr; ++i) {
        int v[4];
        int n4 = 0;
        if (!read_int_seq(PySequence_Fast_GET_ITEM(fr, i), v, 4, n4, "row") || n4 != 4) {
            Py_DECREF(fr);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a row is (last, first, length, heads)");
            return false;
        }
        t.r[i] = Row{uint8_t(v[0]), uint8_t(v[1]), uint8_t(v[2]), 0, v[3]};
    }
    Py_DECREF(fr);
    PyObject* fh = PySequence_Fast(hands, "hands");
    if (!fh) return false;
    Py_ssize_t nh = PySequence_Fast_GET_SIZE(fh);
    if (nh != players) {
        Py_DECREF(fh);
        PyErr_Format(PyExc_ValueError, "expected %d hands, got %zd", players, nh);
        return false;
    }
    hs.n = int(nh);
    for (Py_ssize_t p = 0; p < nh; ++p) {
        int cs[MAXCARD + 1];
        int k = 0;
        if (!read_int_seq(PySequence_Fast_GET_ITEM(fh, p), cs, MAXCARD + 1, k, "hand")) {
            Py_DECREF(fh);
            return false;
        }
        u128 m = 0;
        for (int i = 0; i < k; ++i) {
            if (cs[i] < 1 || cs[i] > MAXCARD) {
                Py_DECREF(fh);
                PyErr_Format(PyExc_ValueError, "card %d out of range", cs[i]);
                return false;
            }
            m |= u128(1) << cs[i];
        }
        hs.h[p] = m;
    }
    Py_DECREF(fh);
    return true;
}

bool q_from(PyObject* o, Q& q) {
    long long n, d;
    if (!PyArg_ParseTuple(o, "LL", &n, &d)) return false;
    if (d <= 0) {
        PyErr_SetString(PyExc_ValueError, "a bound's denominator must be positive");
        return false;
    }
    if (!small_q(n, d, q)) {
        mpq_class r{mpz_class(long(n)), mpz_class(long(d))};
        r.canonicalize();
        q = from_big(std::move(r));
    }
    return true;
}

// Run fn on the main thread, with polling (progress, Ctrl-C, table growth).
template <class F>
PyObject* run_search(SearchObject* self, F fn) {
    Shared& S = *self->shared;
    PollCtx ctx{self, false};
    self->interrupted = false;
    self->started = now_s();
    self->last_progress = self->started;
    PyObject* result = nullptr;
    try {
        result = fn(ctx);
    } catch (std::bad_alloc&) {
        S.stopped.store(true);
        PyErr_NoMemory();
        return nullptr;
    } catch (std::exception& e) {
        S.stopped.store(true);
        PyErr_SetString(PyExc_RuntimeError, e.what());
        return nullptr;
    }
    if (ctx.error) {
        Py_XDECREF(result);
        return nullptr;
    }
    return result;
}

// A RuntimeError when searches started by start() have not all been collected by wait().
bool busy(SearchObject* self) {
    if (self->shared->tasks.empty()) return false;
    PyErr_SetString(PyExc_RuntimeError, "searches started with start() are still running");
    return true;
}

// value(rows, hands, alpha, beta) -> ((lo_n, lo_d), (hi_n, hi_d))
PyObject* search_value(PyObject* o, PyObject* args) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    PyObject *rows, *hands, *pa, *pb;
    if (!PyArg_ParseTuple(args, "OOOO", &rows, &hands, &pa, &pb)) return nullptr;
    Table t;
    Hands hs;
    if (!read_position(rows, hands, self->shared->cfg.players, t, hs)) return nullptr;
    Q alpha, beta;
    if (!q_from(pa, alpha) || !q_from(pb, beta)) return nullptr;
    if (busy(self)) return nullptr;
    return run_search(self, [&](PollCtx& ctx) -> PyObject* {
        Shared& S = *self->shared;
        S.want_threads = self->threads;
        Searcher s(S, 0);
        s.is_main = true;
        s.in_pool = true;
        s.poll = poll_main;
        s.poll_ctx = &ctx;
        S.root_depth = popcount128(hs.h[0]);
        S.root_phase.store(0);
        s.static_bounds(t, hs, S.root_lo, S.root_hi);
        Bounds b = s.value(t, hs, alpha, beta);
        s.flush();
        return Py_BuildValue("(NN)", q_obj(b.lo), q_obj(b.hi));
    });
}

// start(rows, hands, alpha, beta) -> id: value() of the position on a thread of its own,
// sharing the table with the other searches started (one thread each); wait() collects them.
// Meanwhile the caller may start more, but not call value() or solved().
PyObject* search_start(PyObject* o, PyObject* args) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    PyObject *rows, *hands, *pa, *pb;
    if (!PyArg_ParseTuple(args, "OOOO", &rows, &hands, &pa, &pb)) return nullptr;
    Shared& S = *self->shared;
    auto task = std::make_unique<AsyncTask>();
    AsyncTask* tp = task.get();
    if (!read_position(rows, hands, S.cfg.players, tp->t, tp->hs)) return nullptr;
    if (!q_from(pa, tp->alpha) || !q_from(pb, tp->beta)) return nullptr;
    if (tp->hs.h[0] == 0) {
        PyErr_SetString(PyExc_ValueError, "start: the hands are empty");
        return nullptr;
    }
    if (S.tasks.empty()) {
        try {
            S.tt.maybe_grow();  // (no other thread runs yet)
        } catch (std::bad_alloc&) {
            return PyErr_NoMemory();
        }
        self->interrupted = false;
        self->started = now_s();
        self->last_progress = self->started;
        S.root_depth = -1;  // (no root bounds to publish: each search has its own root)
        S.threads_running.store(true);
        // Fewer searches running than threads: the caller's thread, waiting in wait(), helps
        // inside those that run (their loops offered as in value()'s threads).
        S.want_threads = self->threads;
        S.pool_on.store(self->threads > 1);
    }
    if (S.tasks.size() + 1 >= size_t(MAX_WORKERS)) {
        PyErr_Format(PyExc_RuntimeError, "start: at most %d searches at once", MAX_WORKERS - 1);
        return nullptr;
    }
    tp->id = ++S.next_task;
    int w = 1;  // the least number no uncollected task has (0 is the caller's thread)
    while (std::any_of(S.tasks.begin(), S.tasks.end(), [w](auto& x) { return x->worker == w; }))
        ++w;
    tp->worker = w;
    S.active.fetch_add(1);
    S.running_tasks.fetch_add(1);
    try {
        tp->th = std::thread([&S, tp, w]() {
            double t0 = now_s();
            try {
                Searcher sr(S, w);
                sr.halt_flag = &tp->halt;
                sr.account = &tp->counted;
                sr.in_pool = true;
                sr.wait_if_paused();  // (before any access to the table)
                tp->result = sr.value(tp->t, tp->hs, tp->alpha, tp->beta);
                sr.flush();
                tp->nodes = tp->counted.load();
            } catch (...) {
                tp->err = std::current_exception();
            }
            tp->seconds = now_s() - t0;
            S.running_tasks.fetch_sub(1);
            S.active.fetch_sub(1);
            tp->done.store(true, std::memory_order_release);
        });
    } catch (std::exception& e) {
        S.running_tasks.fetch_sub(1);
        S.active.fetch_sub(1);
        if (S.tasks.empty()) {
            S.threads_running.store(false);
            S.pool_on.store(false);
        }
        PyErr_Format(PyExc_RuntimeError, "cannot start a search thread: %s", e.what());
        return nullptr;
    }
    S.tasks.push_back(std::move(task));
    return PyLong_FromLong(tp->id);
}

// wait() -> [(id, lo, hi, nodes, seconds)]: blocks until at least one started search has
// finished (reporting progress, growing the table and reading Ctrl-C meanwhile, which stops
// them all with the bounds they have), then returns every finished one; [] when none runs.
PyObject* search_wait(PyObject* o, PyObject*) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    Shared& S = *self->shared;
    if (S.tasks.empty()) return PyList_New(0);
    PollCtx ctx{self, false};
    auto finished = [&]() {
        for (auto& tp : S.tasks)
            if (tp->done.load(std::memory_order_acquire)) return true;
        return false;
    };
    // While fewer searches run than threads, this thread takes tasks of the loops they offer
    // (each task runs to its end, under the cancel of the search it helps); otherwise it sleeps.
    Searcher helper(S, 0);
    helper.in_pool = true;
    helper.poll = poll_main;
    helper.poll_ctx = &ctx;
    bool counted = false;  // this thread counted in S.idle (ready to help)
    double last_poll = 0;
    while (!finished()) {
        bool ready = S.pool_on.load() && !ctx.error &&
                     S.running_tasks.load() < S.want_threads;
        if (ready != counted) {
            S.idle.fetch_add(ready ? 1 : -1);
            counted = ready;
        }
        bool did = false;
        if (ready) {
            S.idle.fetch_sub(1);
            did = helper.help_one(1 << 20);
            S.idle.fetch_add(1);
        }
        if (!did) {
            if (ready)
                std::this_thread::yield();
            else
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        if (!ctx.error && now_s() - last_poll >= 0.002) {
            last_poll = now_s();
            try {
                poll_main(&ctx);
            } catch (std::bad_alloc&) {  // growing the table
                if (counted) S.idle.fetch_sub(1);
                helper.flush();
                S.stopped.store(true);
                stop_tasks(S);
                return PyErr_NoMemory();
            }
        }
    }
    if (counted) S.idle.fetch_sub(1);
    helper.flush();
    bool failed = ctx.error;
    std::exception_ptr err;
    for (auto& tp : S.tasks)
        if (tp->done.load(std::memory_order_acquire) && tp->err) err = tp->err;
    if (failed || err) {
        S.stopped.store(true);
        stop_tasks(S);
        if (failed) return nullptr;  // (the callback's exception is set)
        try {
            std::rethrow_exception(err);
        } catch (std::bad_alloc&) {
            return PyErr_NoMemory();
        } catch (std::exception& e) {
            PyErr_SetString(PyExc_RuntimeError, e.what());
            return nullptr;
        }
    }
    PyObject* out = PyList_New(0);
    if (!out) return nullptr;
    for (auto it = S.tasks.begin(); it != S.tasks.end();) {
        AsyncTask* tp = it->get();
        if (!tp->done.load(std::memory_order_acquire)) {
            ++it;
            continue;
        }
        tp->th.join();
        PyObject* item = Py_BuildValue("(lNNKd)", tp->id, q_obj(tp->result.lo),
                                       q_obj(tp->result.hi), (unsigned long long)tp->nodes,
                                       tp->seconds);
        if (!item || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return nullptr;
        }
        Py_DECREF(item);
        it = S.tasks.erase(it);
    }
    if (S.tasks.empty()) {
        S.threads_running.store(false);
        S.pool_on.store(false);
    }
    return out;
}

// cancel(id) -> bool: stop a started search (wait() then returns it with the bounds it has).
PyObject* search_cancel(PyObject* o, PyObject* args) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    long id;
    if (!PyArg_ParseTuple(args, "l", &id)) return nullptr;
    for (auto& tp : self->shared->tasks)
        if (tp->id == id) {
            tp->halt.store(true);
            Py_RETURN_TRUE;
        }
    Py_RETURN_FALSE;
}

// solved(rows, hands) -> (value, [(i, q)...], [(j, q)...]) or None if not exact.
// Expands once with the full window over the (warm) table for optimal strategies.
PyObject* search_solved(PyObject* o, PyObject* args) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    if (busy(self)) return nullptr;
    PyObject *rows, *hands;
    if (!PyArg_ParseTuple(args, "OO", &rows, &hands)) return nullptr;
    Table t;
    Hands hs;
    if (!read_position(rows, hands, self->shared->cfg.players, t, hs)) return nullptr;
    if (hs.h[0] == 0) {
        PyErr_SetString(PyExc_ValueError, "the hands are empty");
        return nullptr;
    }
    return run_search(self, [&](PollCtx& ctx) -> PyObject* {
        Shared& S = *self->shared;
        Searcher s(S, 0);
        s.poll = poll_main;
        s.poll_ctx = &ctx;
        int depth = popcount128(hs.h[0]);
        if (depth == 1) {
            Bounds b = s.value(t, hs, -INF, INF);
            s.flush();
            return Py_BuildValue("(N[(iN)][(iN)])", q_obj(b.lo), 0, q_obj(Q(1)), 0, q_obj(Q(1)));
        }
        Key key = make_key(S.cfg.R, t, hs);
        Bounds found;
        bool have = S.tt.get(key, depth, found);
        Expanded e = s.expand(t, hs, -INF, INF, have ? &found : nullptr, true);
        s.flush();
        if (!e.has_strategies) Py_RETURN_NONE;  // stopped by a limit
        S.tt.put(key, depth, e.b);
        PyObject* xs = PyList_New(0);
        PyObject* ys = PyList_New(0);
        for (size_t i = 0; i < e.x.size(); ++i)
            if (!is_zero(e.x[i])) {
                PyObject* it = Py_BuildValue("(nN)", Py_ssize_t(i), q_obj(e.x[i]));
                PyList_Append(xs, it);
                Py_DECREF(it);
            }
        for (size_t j = 0; j < e.y.size(); ++j)
            if (!is_zero(e.y[j])) {
                PyObject* it = Py_BuildValue("(nN)", Py_ssize_t(j), q_obj(e.y[j]));
                PyList_Append(ys, it);
                Py_DECREF(it);
            }
        return Py_BuildValue("(NNN)", q_obj(e.b.lo), xs, ys);
    });
}

// safe(rows, hands, player) -> True / False, or None when a limit stopped the search first:
// can `player` make sure of taking no head for the rest of the round (Searcher::safe)?
PyObject* search_safe(PyObject* o, PyObject* args) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    if (busy(self)) return nullptr;
    PyObject *rows, *hands;
    int player;
    if (!PyArg_ParseTuple(args, "OOi", &rows, &hands, &player)) return nullptr;
    Table t;
    Hands hs;
    if (!read_position(rows, hands, self->shared->cfg.players, t, hs)) return nullptr;
    if (player < 0 || player >= hs.n) {
        PyErr_Format(PyExc_ValueError, "player %d is not a seat 0..%d", player, hs.n - 1);
        return nullptr;
    }
    return run_search(self, [&](PollCtx& ctx) -> PyObject* {
        Shared& S = *self->shared;
        Searcher s(S, 0);
        s.is_main = true;
        s.in_pool = true;
        s.poll = poll_main;
        s.poll_ctx = &ctx;
        S.root_depth = -1;  // (no root bounds to publish)
        bool ok = s.safe(t, hs, player);
        s.flush();
        if (S.stopped.load()) Py_RETURN_NONE;
        return PyBool_FromLong(ok);
    });
}

// key(rows, hands) -> (a, b): the 128-bit canonical key (for tests)
PyObject* search_key(PyObject* o, PyObject* args) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    PyObject *rows, *hands;
    if (!PyArg_ParseTuple(args, "OO", &rows, &hands)) return nullptr;
    Table t;
    Hands hs;
    if (!read_position(rows, hands, self->shared->cfg.players, t, hs)) return nullptr;
    Key k = make_key(self->shared->cfg.R, t, hs);
    return Py_BuildValue("(KK)", (unsigned long long)k.a, (unsigned long long)k.b);
}

// The (rows, card) arguments of place and place_forced; false with a Python error set.
bool read_rows_card(PyObject* args, Table& t, int& card) {
    PyObject* rows;
    if (!PyArg_ParseTuple(args, "Oi", &rows, &card)) return false;
    Hands hs;
    PyObject* nohands = PyTuple_New(0);
    bool ok = read_position(rows, nohands, 0, t, hs);
    Py_DECREF(nohands);
    if (!ok) return false;
    if (card < 1 || card > MAXCARD) {
        PyErr_Format(PyExc_ValueError, "card %d out of range", card);
        return false;
    }
    return true;
}

// place(rows, card) -> (choice, [(rows, taken), ...]) (for differential tests of the kernel)
PyObject* search_place(PyObject* o, PyObject* args) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    Table t;
    int card;
    if (!read_rows_card(args, t, card)) return nullptr;
    Opt opts[MAXROWS];
    bool choice = false;
    int no = place(self->shared->cfg.R, t, card, opts, &choice);
    PyObject* lst = PyList_New(no);
    for (int k = 0; k < no; ++k) {
        PyObject* tr = PyTuple_New(opts[k].t.n);
        for (int i = 0; i < opts[k].t.n; ++i) {
            const Row& r = opts[k].t.r[i];
            PyTuple_SET_ITEM(tr, i, Py_BuildValue("(iiii)", r.last, r.first, r.len, r.heads));
        }
        PyList_SET_ITEM(lst, k, Py_BuildValue("(Ni)", tr, opts[k].taken));
    }
    return Py_BuildValue("(ON)", choice ? Py_True : Py_False, lst);
}

// place_forced(rows, card) -> (taken, rows): the in-place placement the search uses for a card
// whose owner has no choice; taken is -1 (and the rows unchanged) when the owner must choose.
PyObject* search_place_forced(PyObject* o, PyObject* args) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    Table t;
    int card;
    if (!read_rows_card(args, t, card)) return nullptr;
    int taken = place_forced(self->shared->cfg.R, t, card);
    PyObject* tr = PyTuple_New(t.n);
    for (int i = 0; i < t.n; ++i) {
        const Row& r = t.r[i];
        PyTuple_SET_ITEM(tr, i, Py_BuildValue("(iiii)", r.last, r.first, r.len, r.heads));
    }
    return Py_BuildValue("(iN)", taken, tr);
}

PyObject* search_configure(PyObject* o, PyObject* args, PyObject* kw) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    if (busy(self)) return nullptr;
    static const char* names[] = {"time_limit", "node_limit", "progress", "every", "threads",
                                  "checkpoint", "checkpoint_every", "checkpoint_depth",
                                  "killers", nullptr};
    double time_limit = 0;
    unsigned long long node_limit = 0;
    PyObject* progress = Py_None;
    double every = 1.0;
    int threads = 1;
    PyObject* ckpt = Py_None;
    double ckpt_every = 0;
    int ckpt_depth = 2;
    PyObject* killers = nullptr;  // (omitted: as it was)
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|dKOdiOdiO", const_cast<char**>(names),
                                     &time_limit, &node_limit, &progress, &every, &threads, &ckpt,
                                     &ckpt_every, &ckpt_depth, &killers))
        return nullptr;
    const int on = killers == nullptr ? -1 : PyObject_IsTrue(killers);
    if (killers != nullptr && on < 0) return nullptr;
    if (ckpt != Py_None && !PyBytes_Check(ckpt)) {
        PyErr_SetString(PyExc_TypeError, "checkpoint is a path as bytes, or None");
        return nullptr;
    }
    Py_INCREF(ckpt);
    Py_XDECREF(self->ckpt_path);
    self->ckpt_path = ckpt;
    self->ckpt_every = ckpt_every;
    self->ckpt_depth = std::max(2, ckpt_depth);
    self->ckpt_last = now_s();
    Shared& S = *self->shared;
    S.deadline = time_limit > 0 ? now_s() + time_limit : 0;
    S.node_limit = node_limit;
    S.stopped.store(false);
    if (on >= 0) {
        S.killers = on != 0;
        if (!S.killers)  // (none left over for a later search that turns them back on)
            for (int d = 0; d < 34; ++d) S.killer_max[d].store(0), S.killer_min[d].store(0);
    }
    Py_INCREF(progress);
    Py_XDECREF(self->progress);
    self->progress = progress;
    self->progress_every = every;
    self->threads = std::max(1, std::min(threads, 64));
    Py_RETURN_NONE;
}

PyObject* search_stats(PyObject* o, PyObject*) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    Shared& S = *self->shared;
    return Py_BuildValue(
        "{sKsKsKsKsKsKsKsKsOs(iii)snsKsK}", "nodes", (unsigned long long)S.nodes.load(), "lps",
        (unsigned long long)S.lps.load(), "saddles", (unsigned long long)S.saddles.load(), "hits",
        (unsigned long long)S.hits.load(), "filled", (unsigned long long)S.tt.filled.load(),
        "capacity", (unsigned long long)S.tt.capacity(), "max_capacity",
        (unsigned long long)(S.tt.max_buckets() * 4), "table_bytes",
        (unsigned long long)S.tt.bytes(), "stopped", S.stopped.load() ? Py_True : Py_False, "root",
        S.root_phase.load(), S.root_done.load(), S.root_total.load(), "running",
        Py_ssize_t(S.tasks.size()), "nested_loops", (unsigned long long)S.nested_loops.load(),
        "helped_tasks", (unsigned long long)S.helped_tasks.load());
}

PyObject* search_profile(PyObject* o, PyObject*) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    Shared& S = *self->shared;
    PyObject* a = PyList_New(33);
    PyObject* b = PyList_New(33);
    for (int k = 0; k < 33; ++k) {
        PyList_SET_ITEM(a, k, PyLong_FromUnsignedLongLong(S.expansions[k].load()));
        PyList_SET_ITEM(b, k, PyLong_FromUnsignedLongLong(S.exact_out[k].load()));
    }
    return Py_BuildValue("(NN)", a, b);
}

// save(path) -> (entries, long values): the table's entries of at least checkpoint_depth
// cards a hand, and every long exact value, written to path.
PyObject* search_save(PyObject* o, PyObject* args) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    if (busy(self)) return nullptr;
    const char* path;
    if (!PyArg_ParseTuple(args, "y", &path)) return nullptr;
    u64 ns = 0, nb = 0;
    std::string err;
    bool ok;
    Py_BEGIN_ALLOW_THREADS ok = save_table(*self->shared, path, self->ckpt_depth, ns, nb, err);
    Py_END_ALLOW_THREADS if (!ok) {
        PyErr_SetString(PyExc_OSError, err.c_str());
        return nullptr;
    }
    return Py_BuildValue("(KK)", (unsigned long long)ns, (unsigned long long)nb);
}

// load(path) -> (entries, long values) read into the table; ValueError for a file that is not
// a checkpoint of this configuration (or is damaged), OSError when it cannot be read.
PyObject* search_load(PyObject* o, PyObject* args) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    if (busy(self)) return nullptr;
    const char* path;
    if (!PyArg_ParseTuple(args, "y", &path)) return nullptr;
    u64 ns = 0, nb = 0;
    std::string err;
    bool ok;
    int e = 0;
    try {
        Py_BEGIN_ALLOW_THREADS ok = load_table(*self->shared, path, ns, nb, err);
        e = errno;
        Py_END_ALLOW_THREADS
    } catch (std::bad_alloc&) {
        return PyErr_NoMemory();
    }
    if (!ok) {
        PyErr_SetString(err.rfind("cannot read", 0) == 0 ? PyExc_OSError : PyExc_ValueError,
                        err.c_str());
        (void)e;
        return nullptr;
    }
    return Py_BuildValue("(KK)", (unsigned long long)ns, (unsigned long long)nb);
}

PyObject* search_checkpoints(PyObject* o, PyObject*) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    return PyLong_FromUnsignedLongLong(self->ckpt_count);
}

PyObject* search_interrupted(PyObject* o, PyObject*) {
    SearchObject* self = reinterpret_cast<SearchObject*>(o);
    return PyBool_FromLong(self->interrupted);
}

PyMethodDef search_methods[] = {
    {"value", search_value, METH_VARARGS, "value(rows, hands, alpha, beta) -> (lo, hi)"},
    {"start", search_start, METH_VARARGS,
     "start(rows, hands, alpha, beta) -> id: value() on a thread of its own"},
    {"wait", search_wait, METH_NOARGS,
     "wait() -> [(id, lo, hi, nodes, seconds)] of the started searches that finished"},
    {"cancel", search_cancel, METH_VARARGS, "cancel(id) -> bool: stop a started search"},
    {"solved", search_solved, METH_VARARGS,
     "solved(rows, hands) -> (value, x, y) or None when stopped"},
    {"safe", search_safe, METH_VARARGS,
     "safe(rows, hands, player) -> True/False (None when stopped): can player take no head?"},
    {"key", search_key, METH_VARARGS, "key(rows, hands) -> 128-bit canonical key"},
    {"place", search_place, METH_VARARGS, "place(rows, card) -> (choice, options)"},
    {"place_forced", search_place_forced, METH_VARARGS,
     "place_forced(rows, card) -> (taken or -1, rows)"},
    {"configure", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(search_configure)),
     METH_VARARGS | METH_KEYWORDS, "set limits, progress callback and threads"},
    {"stats", search_stats, METH_NOARGS, "counters"},
    {"profile", search_profile, METH_NOARGS,
     "expansions and exact results by cards left per hand (two lists of 33)"},
    {"interrupted", search_interrupted, METH_NOARGS, "True if Ctrl-C stopped the last call"},
    {"save", search_save, METH_VARARGS, "save(path) -> (entries, long values) written"},
    {"load", search_load, METH_VARARGS, "load(path) -> (entries, long values) read"},
    {"checkpoints", search_checkpoints, METH_NOARGS, "checkpoints written during searches"},
    {nullptr, nullptr, 0, nullptr}};

// ---------------------------------------------------------------------------------------------
// Reply(heads, capacity, profi, tie, lowest_wins, me, kind, memory): the best reply to a bot.

struct ReplyObject {
    PyObject_HEAD BotReply* core;
    PyObject* progress;  // callable(positions, nodes, seconds) or None
    double every, last, started;
    bool error;  // the progress callback raised (not KeyboardInterrupt): pass it on
};

void reply_poll(void* p) {
    ReplyObject* self = static_cast<ReplyObject*>(p);
    BotReply& B = *self->core;
    double t = now_s();
    if (B.deadline > 0 && t > B.deadline) B.stopped = true;
    if (PyErr_CheckSignals() < 0) {
        PyErr_Clear();
        B.interrupted = B.stopped = true;
        return;
    }
    if (self->progress != Py_None && t - self->last >= self->every) {
        self->last = t;
        PyObject* r = PyObject_CallFunction(self->progress, "KKd",
                                            (unsigned long long)B.tab.filled.load(),
                                            (unsigned long long)B.nodes, t - self->started);
        if (!r) {
            if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
                PyErr_Clear();
                B.interrupted = true;
            } else {
                self->error = true;
            }
            B.stopped = true;
        } else {
            Py_DECREF(r);
        }
    }
}

PyObject* reply_new(PyTypeObject* type, PyObject* args, PyObject*) {
    PyObject* heads;
    int capacity, profi, tie, lowest_wins, me, kind;
    unsigned long long memory;
    if (!PyArg_ParseTuple(args, "OiiiiiiK", &heads, &capacity, &profi, &tie, &lowest_wins, &me,
                          &kind, &memory))
        return nullptr;
    if (me != 0 && me != 1) {
        PyErr_Format(PyExc_ValueError, "seat %d: the reply is for seat 0 or 1", me);
        return nullptr;
    }
    if (kind < BOT_RANDOM || kind > BOT_SAFE) {
        PyErr_Format(PyExc_ValueError, "unknown bot kind %d", kind);
        return nullptr;
    }
    int nh = 0;
    int hv[MAXCARD + 1];
    if (!read_int_seq(heads, hv, MAXCARD + 1, nh, "heads")) return nullptr;
    ReplyObject* self = reinterpret_cast<ReplyObject*>(type->tp_alloc(type, 0));
    if (!self) return nullptr;
    self->core = new (std::nothrow) BotReply();
    if (!self->core) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    BotReply& B = *self->core;
    for (int c = 0; c <= MAXCARD; ++c) B.R.heads[c] = c < nh ? hv[c] : 0;
    B.R.capacity = capacity;
    B.R.profi = profi != 0;
    B.R.tie = tie;
    B.sign = lowest_wins ? 1 : -1;
    B.me = me;
    B.bot = 1 - me;
    B.kind = kind;
    try {
        B.tab.init(memory);
    } catch (std::bad_alloc&) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    B.poll = reply_poll;
    B.poll_ctx = self;
    self->progress = Py_None;
    Py_INCREF(Py_None);
    self->every = 0.5;
    self->started = self->last = now_s();
    self->error = false;
    return reinterpret_cast<PyObject*>(self);
}

int reply_traverse(PyObject* o, visitproc visit, void* arg) {
    Py_VISIT(reinterpret_cast<ReplyObject*>(o)->progress);
    return 0;
}

int reply_clear(PyObject* o) {
    Py_CLEAR(reinterpret_cast<ReplyObject*>(o)->progress);
    return 0;
}

void reply_dealloc(PyObject* o) {
    ReplyObject* self = reinterpret_cast<ReplyObject*>(o);
    PyObject_GC_UnTrack(o);
    delete self->core;
    reply_clear(o);
    Py_TYPE(o)->tp_free(o);
}

// configure(time_limit=0.0, progress=None, every=0.5): the clock starts now.
PyObject* reply_configure(PyObject* o, PyObject* args, PyObject* kw) {
    ReplyObject* self = reinterpret_cast<ReplyObject*>(o);
    static const char* names[] = {"time_limit", "progress", "every", nullptr};
    double limit = 0, every = 0.5;
    PyObject* progress = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|dOd", const_cast<char**>(names), &limit,
                                     &progress, &every))
        return nullptr;
    if (progress != Py_None && !PyCallable_Check(progress)) {
        PyErr_SetString(PyExc_TypeError, "progress must be callable or None");
        return nullptr;
    }
    Py_INCREF(progress);
    Py_XDECREF(self->progress);
    self->progress = progress;
    self->every = every;
    self->started = self->last = now_s();
    self->core->deadline = limit > 0 ? self->started + limit : 0;
    self->core->stopped = self->core->interrupted = false;
    self->core->halt = false;
    Py_RETURN_NONE;
}

// The position of a reply call, rows sorted by their last card, each knowing its number (the
// bots' tie-breaks read it); false with a Python error set when it is not one.
bool reply_position(PyObject* rows, PyObject* hands, Table& t, Hands& hs) {
    if (!read_position(rows, hands, 2, t, hs)) return false;
    for (int i = 0; i < t.n; ++i) t.r[i].pad = uint8_t(i);
    std::stable_sort(t.r, t.r + t.n, [](const Row& x, const Row& y) { return x.last < y.last; });
    if (popcount128(hs.h[0]) != popcount128(hs.h[1]) || (hs.h[0] & hs.h[1])) {
        PyErr_SetString(PyExc_ValueError, "the hands must be disjoint and of equal size");
        return false;
    }
    return true;
}

bool reply_card_ok(const BotReply& B, const Hands& hs, int card) {
    if (card < 1 || card > MAXCARD || !((hs.h[B.me] >> card) & 1)) {
        PyErr_Format(PyExc_ValueError, "card %d is not in seat %d's hand", card, B.me);
        return false;
    }
    return true;
}

// card(rows, hands, card) -> (n, d), or None when stopped. rows: (last, first, length, heads)
// in the reference's order; hands: the two seats' cards.
PyObject* reply_card(PyObject* o, PyObject* args) {
    ReplyObject* self = reinterpret_cast<ReplyObject*>(o);
    BotReply& B = *self->core;
    PyObject *rows, *hands;
    int card;
    if (!PyArg_ParseTuple(args, "OOi", &rows, &hands, &card)) return nullptr;
    Table t;
    Hands hs;
    if (!reply_position(rows, hands, t, hs) || !reply_card_ok(B, hs, card)) return nullptr;
    if (B.stopped) Py_RETURN_NONE;
    Q v;
    try {
        v = B.card_value(t, hs, card);
    } catch (ReplyStopped&) {
        if (self->error) return nullptr;
        Py_RETURN_NONE;
    } catch (std::bad_alloc&) {
        return PyErr_NoMemory();
    }
    return q_obj(v);
}

// cards(rows, hands, cards, threads) -> [(n, d) or None for each card]: the cards valued by
// `threads` threads sharing the table, each taking the next card not yet begun; this thread
// is one of them and polls (progress, time limit, Ctrl-C) for all; None for a card that a stop
// left unvalued.
PyObject* reply_cards(PyObject* o, PyObject* args) {
    ReplyObject* self = reinterpret_cast<ReplyObject*>(o);
    BotReply& B = *self->core;
    PyObject *rows, *hands, *seq;
    int threads;
    if (!PyArg_ParseTuple(args, "OOOi", &rows, &hands, &seq, &threads)) return nullptr;
    if (threads < 1 || threads > 64) {
        PyErr_Format(PyExc_ValueError, "threads must be 1..64, got %d", threads);
        return nullptr;
    }
    Table t;
    Hands hs;
    if (!reply_position(rows, hands, t, hs)) return nullptr;
    int nc = 0;
    int cv[MAXCARD + 1];
    if (!read_int_seq(seq, cv, MAXCARD + 1, nc, "cards")) return nullptr;
    for (int i = 0; i < nc; ++i)
        if (!reply_card_ok(B, hs, cv[i])) return nullptr;
    std::vector<Q> val(static_cast<size_t>(nc));
    std::vector<char> got(static_cast<size_t>(nc), 0);
    std::atomic<int> next{0}, running{0};
    std::atomic<bool> oom{false};
    B.cards_done = 0;
    auto work = [&](BotReply& W) {
        for (;;) {
            int i = next.fetch_add(1);
            if (i >= nc) return;
            try {
                val[size_t(i)] = W.card_value(t, hs, cv[i]);
                got[size_t(i)] = 1;
                ++B.cards_done;
            } catch (ReplyStopped&) {
                return;
            } catch (std::bad_alloc&) {
                oom = true;
                B.halt = true;
                return;
            }
        }
    };
    std::vector<std::unique_ptr<BotReply>> helpers;
    std::vector<std::thread> pool;
    if (!B.stopped) {
        B.tab.concurrent = threads > 1 && nc > 1;  // (before any thread starts)
        try {
            for (int i = 1; i < threads && i < nc; ++i) {
                helpers.emplace_back(new BotReply(B));
                BotReply* h = helpers.back().get();
                ++running;
                try {
                    pool.emplace_back([&work, &running, h] {
                        work(*h);
                        --running;
                    });
                } catch (...) {
                    --running;
                    throw;
                }
            }
        } catch (std::exception&) {  // (no more threads or memory: fewer threads)
        }
        work(B);
        while (running > 0) {  // the others still search: poll for them
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            reply_poll(self);
            if (B.stopped) B.halt = true;
        }
        for (std::thread& th : pool) th.join();
        B.tab.concurrent = false;
        for (auto& h : helpers) B.nodes += h->nodes;
    }
    if (oom) return PyErr_NoMemory();
    if (self->error) return nullptr;
    PyObject* out = PyList_New(nc);
    if (!out) return nullptr;
    for (int i = 0; i < nc; ++i) {
        PyObject* x;
        if (got[size_t(i)]) {
            x = q_obj(val[size_t(i)]);
            if (!x) {
                Py_DECREF(out);
                return nullptr;
            }
        } else {
            x = Py_None;
            Py_INCREF(x);
        }
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

PyObject* reply_stats(PyObject* o, PyObject*) {
    ReplyObject* self = reinterpret_cast<ReplyObject*>(o);
    BotReply& B = *self->core;
    return Py_BuildValue("{sKsKsKsOsKsi}", "positions", (unsigned long long)B.tab.filled.load(),
                         "nodes", (unsigned long long)B.nodes, "table_bytes",
                         (unsigned long long)B.tab.bytes(), "full",
                         B.tab.full.load() ? Py_True : Py_False, "replaced",
                         (unsigned long long)B.tab.replaced.load(), "cards_done",
                         B.cards_done.load());
}

PyObject* reply_interrupted(PyObject* o, PyObject*) {
    ReplyObject* self = reinterpret_cast<ReplyObject*>(o);
    return PyBool_FromLong(self->core->interrupted);
}

PyMethodDef reply_methods[] = {
    {"configure", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(reply_configure)),
     METH_VARARGS | METH_KEYWORDS, "configure(time_limit=0.0, progress=None, every=0.5)"},
    {"card", reply_card, METH_VARARGS,
     "card(rows, hands, card) -> exact expected diff of playing card now, or None when stopped"},
    {"cards", reply_cards, METH_VARARGS,
     "cards(rows, hands, cards, threads) -> [exact expected diff of each card, or None]"},
    {"stats", reply_stats, METH_NOARGS,
     "positions, nodes, table_bytes, full, replaced, cards_done"},
    {"interrupted", reply_interrupted, METH_NOARGS, "True if Ctrl-C stopped the last call"},
    {nullptr, nullptr, 0, nullptr}};

PyTypeObject ReplyType = {PyVarObject_HEAD_INIT(nullptr, 0)};

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_core",
                          "The compiled search core of take6's exact solver.", -1, nullptr};

}  // namespace

PyMODINIT_FUNC PyInit__core(void) {
    SearchType.tp_name = "solver.native._core.Search";
    SearchType.tp_basicsize = sizeof(SearchObject);
    SearchType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
    SearchType.tp_traverse = search_traverse;
    SearchType.tp_clear = search_clear;
    SearchType.tp_new = search_new;
    SearchType.tp_dealloc = search_dealloc;
    SearchType.tp_methods = search_methods;
    SearchType.tp_doc = "Search(heads, capacity, profi, tie, weights, max_side, min_side, memory)";
    if (PyType_Ready(&SearchType) < 0) return nullptr;
    PyObject* m = PyModule_Create(&module_def);
    if (!m) return nullptr;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", reinterpret_cast<PyObject*>(&SearchType)) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return nullptr;
    }
    ReplyType.tp_name = "solver.native._core.Reply";
    ReplyType.tp_basicsize = sizeof(ReplyObject);
    ReplyType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
    ReplyType.tp_traverse = reply_traverse;
    ReplyType.tp_clear = reply_clear;
    ReplyType.tp_new = reply_new;
    ReplyType.tp_dealloc = reply_dealloc;
    ReplyType.tp_methods = reply_methods;
    ReplyType.tp_doc = "Reply(heads, capacity, profi, tie, lowest_wins, me, kind, memory)";
    if (PyType_Ready(&ReplyType) < 0) {
        Py_DECREF(m);
        return nullptr;
    }
    Py_INCREF(&ReplyType);
    if (PyModule_AddObject(m, "Reply", reinterpret_cast<PyObject*>(&ReplyType)) < 0) {
        Py_DECREF(&ReplyType);
        Py_DECREF(m);
        return nullptr;
    }
    return m;
}
