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
    /* TODO (README, task 1): split the code into sign, exponent e and
     * mantissa m (f.eb and f.mb bits); the NaN codes (and E5M2's
     * infinities, f.ieee_top); e == 0: m units of the smallest subnormal;
     * else (1 + m / 2^mb) 2^(e - bias). ldexpf is exact here. */
    (void)code, (void)f;
    return 0.0f;
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
    /* TODO (README, task 1): NaN -> 0x7f; |x| >= the largest finite value
     * (infinities too) -> f.max_code with x's sign; otherwise round |x| to
     * the nearest code, ties to the even one: in the normal range keep mb
     * bits of x's 24-bit significand (rne_shift), carrying into the
     * exponent when they round up to 2^(mb+1); below 2^emin count units of
     * the smallest subnormal. Keep the sign (of zero too). */
    (void)x, (void)f;
    return 0;
}

}  // namespace

extern "C" float fp8_convert_from_e4m3(uint8_t code) { return decode(code, E4M3); }
extern "C" float fp8_convert_from_e5m2(uint8_t code) { return decode(code, E5M2); }
extern "C" uint8_t fp8_convert_to_e4m3(float x) { return encode(x, E4M3); }
extern "C" uint8_t fp8_convert_to_e5m2(float x) { return encode(x, E5M2); }
