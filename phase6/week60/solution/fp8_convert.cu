// fp8_convert.cu — week 60, task 1: E4M3 and E5M2 to and from float on the
// CPU (fp8_convert.h has the two formats and the rounding rules).
//
// Both formats are one sign bit, EB exponent bits with bias 2^(EB-1) - 1
// and MB mantissa bits; they differ only in EB and MB and in what the top
// exponent means (E4M3: finite, but its all-ones code is NaN; E5M2:
// infinities and NaNs as in IEEE 754). So one pair of functions takes the
// format as a description, and the four exported ones name it.
#include <math.h>
#include <string.h>

#include "fp8_convert.h"

namespace {

struct fmt {
    int eb, mb;        // exponent and mantissa bits
    int ieee_top;      // 1: exponent all ones is Inf/NaN (E5M2); 0: only the all-ones code is NaN (E4M3)
    uint8_t max_code;  // the largest finite value's code
};
constexpr fmt E4M3 = { 4, 3, 0, FP8_E4M3_MAX_CODE };
constexpr fmt E5M2 = { 5, 2, 1, FP8_E5M2_MAX_CODE };

float decode(uint8_t code, fmt f)
{
    //@solution
    const int bias = (1 << (f.eb - 1)) - 1;
    const int e = (code >> f.mb) & ((1 << f.eb) - 1), m = code & ((1 << f.mb) - 1);
    const bool neg = code & 0x80;
    float v;
    if (f.ieee_top && e == (1 << f.eb) - 1) {
        v = m ? NAN : INFINITY;
    } else if (!f.ieee_top && (code & 0x7f) == 0x7f) {
        v = NAN;
    } else if (e == 0) {
        v = ldexpf((float)m, 1 - bias - f.mb);  // subnormal: m units of 2^(1 - bias - mb)
    } else {
        v = ldexpf((float)((1 << f.mb) | m), e - bias - f.mb);  // (1.m) 2^(e - bias), as an integer significand
    }
    return neg ? -v : v;
    //@starter
    //| /* TODO (README, task 1): split the code into sign, exponent e and
    //|  * mantissa m (f.eb and f.mb bits); the NaN codes (and E5M2's
    //|  * infinities, f.ieee_top); e == 0: m units of the smallest subnormal;
    //|  * else (1 + m / 2^mb) 2^(e - bias). ldexpf is exact here. */
    //| (void)code, (void)f;
    //| return 0.0f;
    //@end
}

// sig >> shift rounded to nearest, ties to even (sig below 2^24, shift >= 1; 32 or more gives 0).
[[maybe_unused]] uint32_t rne_shift(uint32_t sig, int shift)
{
    if (shift >= 32) return 0;
    const uint32_t q = sig >> shift, rest = sig & ((1u << shift) - 1), half = 1u << (shift - 1);
    return q + (rest > half || (rest == half && (q & 1u)));
}

uint8_t encode(float x, fmt f)
{
    //@solution
    uint32_t bits;
    memcpy(&bits, &x, 4);
    const uint8_t sign = (uint8_t)(bits >> 24 & 0x80);
    if (isnan(x)) return 0x7f;
    const float mag = fabsf(x);
    const int bias = (1 << (f.eb - 1)) - 1, emin = 1 - bias;
    const float maxv = decode(f.max_code, f);
    if (mag >= maxv) return sign | f.max_code;  // the largest finite value, infinities included (.satfinite)
    const int fe = (int)(bits >> 23 & 0xff);
    if (fe == 0) return sign;  // a float subnormal: far below half of the smallest FP8 subnormal
    const int e = fe - 127;
    const uint32_t sig = (bits & 0x7fffffu) | 0x800000u;  // mag = sig 2^(e - 23)
    if (e >= emin) {
        // normal in FP8: keep mb bits below the leading one; a carry out of
        // the mantissa moves to the next exponent (still below max: checked above)
        uint32_t q = rne_shift(sig, 23 - f.mb);
        int ee = e;
        if (q >> (f.mb + 1)) q >>= 1, ee++;
        return sign | (uint8_t)((ee + bias) << f.mb | (q & ((1u << f.mb) - 1)));
    }
    // subnormal in FP8: units of 2^(emin - mb); sig 2^(e - 23) is sig >> (23 + emin - mb - e) units.
    // A result of 1 << mb is the smallest normal, whose code is exactly that.
    const uint32_t q = rne_shift(sig, 23 + emin - f.mb - e);
    return sign | (uint8_t)q;
    //@starter
    //| /* TODO (README, task 1): NaN -> 0x7f; |x| >= the largest finite value
    //|  * (infinities too) -> f.max_code with x's sign; otherwise round |x| to
    //|  * the nearest code, ties to the even one: in the normal range keep mb
    //|  * bits of x's 24-bit significand (rne_shift), carrying into the
    //|  * exponent when they round up to 2^(mb+1); below 2^emin count units of
    //|  * the smallest subnormal. Keep the sign (of zero too). */
    //| (void)x, (void)f;
    //| return 0;
    //@end
}

}  // namespace

extern "C" float fp8_convert_from_e4m3(uint8_t code) { return decode(code, E4M3); }
extern "C" float fp8_convert_from_e5m2(uint8_t code) { return decode(code, E5M2); }
extern "C" uint8_t fp8_convert_to_e4m3(float x) { return encode(x, E4M3); }
extern "C" uint8_t fp8_convert_to_e5m2(float x) { return encode(x, E5M2); }
