/* core/cpu.c: CPU feature questions, asked once here (see cpu.h). */
#include "core/cpu.h"

bool pqt_cpu_has(pqt_cpu_level level) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  switch (level) {
    case PQT_CPU_AVX2: return __builtin_cpu_supports("avx2");
    case PQT_CPU_AVX2_BMI2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt") &&
             !__builtin_cpu_is("znver1") && !__builtin_cpu_is("znver2");
    case PQT_CPU_AVX512F: return __builtin_cpu_supports("avx512f");
    case PQT_CPU_AVX512_VBMI:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vbmi");
  }
  return false;
#else
  (void)level;
  return false;
#endif
}
