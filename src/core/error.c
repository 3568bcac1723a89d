/* core/error.c: pqt_error helpers. Messages are truncated, never overflowed. */
#include <stdio.h>

#define PQT_ERROR_IMPL /* the definitions below, not core.h's analyzer macros */
#include "core.h"

PQT_API void pqt_error_init(pqt_error *err) {
  if (!err) return;
  err->code = PQT_OK;
  err->message[0] = '\0';
  err->file_offset = -1;
  err->row_group = -1;
  err->column = -1;
  err->page = -1;
}

PQT_API const char *pqt_status_name(pqt_status code) {
  switch (code) {
    case PQT_OK: return "PQT_OK";
    case PQT_EINVAL: return "PQT_EINVAL";
    case PQT_ENOMEM: return "PQT_ENOMEM";
    case PQT_EIO: return "PQT_EIO";
    case PQT_ECORRUPT: return "PQT_ECORRUPT";
    case PQT_EUNSUPPORTED: return "PQT_EUNSUPPORTED";
    case PQT_ECRYPTO: return "PQT_ECRYPTO";
    case PQT_ELIMIT: return "PQT_ELIMIT";
    case PQT_ERANGE: return "PQT_ERANGE";
    default: return "PQT_E?";
  }
}

/* Sets every field: the code, the message, and the places to -1 (callers
 * on the way up fill in the places they know). The caller's pqt_error is
 * never read: it is output only. */
pqt_status pqt_error_vset(pqt_error *err, pqt_status code, const char *fmt, va_list ap) {
  if (err) {
    pqt_error_init(err);
    err->code = code;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
  }
  return code;
}

pqt_status pqt_error_set(pqt_error *err, pqt_status code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  pqt_error_vset(err, code, fmt, ap);
  va_end(ap);
  return code;
}

void pqt_error_prefix(pqt_error *err, const char *fmt, ...) {
  if (!err) return;
  char prefix[256];
  char old[sizeof err->message];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  memcpy(old, err->message, sizeof old);
  old[sizeof old - 1] = '\0';
  size_t pl = strlen(prefix);
  if (pl > sizeof err->message - 3) pl = sizeof err->message - 3;
  memcpy(err->message, prefix, pl);
  err->message[pl] = ':';
  err->message[pl + 1] = ' ';
  size_t room = sizeof err->message - pl - 3;
  size_t ol = strlen(old);
  if (ol > room) ol = room;
  memcpy(err->message + pl + 2, old, ol);
  err->message[pl + 2 + ol] = '\0';
}

pqt_status pqt_error_from_callback(pqt_error *err, pqt_status st, pqt_error *local, const char *what) {
  local->message[sizeof local->message - 1] = '\0';
  if (local->message[0]) return pqt_error_set(err, st, "%s", local->message);
  return pqt_error_set(err, st, "%s failed (%s)", what, pqt_status_name(st));
}

pqt_status pqt_corrupt(pqt_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  pqt_error_vset(err, PQT_ECORRUPT, fmt, ap);
  va_end(ap);
  return PQT_ECORRUPT;
}

pqt_status pqt_nomem(pqt_error *err) { return pqt_error_set(err, PQT_ENOMEM, "out of memory"); }

PQT_API const char *pqt_version(void) { return PQT_VERSION_STRING; }
PQT_API int pqt_version_number(void) { return PQT_VERSION_NUMBER; }
