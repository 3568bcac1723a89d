/* core/cpu.h: the one place that asks the CPU what it can do, for the
 * SIMD kernels chosen per call (levels/kernels.c, encoding/rle.c,
 * encoding/alp.c). Answers come from __builtin_cpu_supports (the
 * compiler runtime caches them); no global state of our own. On other
 * CPUs and compilers every answer is false. */
#ifndef PQT_CORE_CPU_H
#define PQT_CORE_CPU_H

#include <stdbool.h>

typedef enum pqt_cpu_level {
  PQT_CPU_AVX2,        /* AVX2 */
  PQT_CPU_AVX2_BMI2,   /* AVX2 + BMI2 + POPCNT, and pext is fast (not AMD Zen 1/2, where it is microcoded) */
  PQT_CPU_AVX512F,     /* AVX-512 Foundation */
  PQT_CPU_AVX512_VBMI, /* AVX-512 F + BW + VBMI */
} pqt_cpu_level;

bool pqt_cpu_has(pqt_cpu_level level);

#endif
