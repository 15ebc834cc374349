// zlib, for the .ipa reader's inflation (ZIP's "deflate" method is raw deflate: no zlib header)
// and for the tests' archives. zlib's own header stays in CInflate.c: imported into Swift beside
// libxml2's module, the system headers it pulls in clashed with Foundation's ICU types.
#ifndef CINFLATE_H
#define CINFLATE_H

#include <stddef.h>
#include <stdint.h>

/// zlib's results, as `iap_inflate_step` returns them.
#define IAP_Z_OK 0
#define IAP_Z_STREAM_END 1
#define IAP_Z_BUF_ERROR (-5)

/// One raw deflate stream being inflated; NULL when zlib could not start.
typedef struct iap_inflater iap_inflater;
iap_inflater *iap_inflater_create(void);
void iap_inflater_free(iap_inflater *inflater);

/// One call of zlib's `inflate` (Z_NO_FLUSH) on `input`, into `output`: how many bytes it took
/// and made, and zlib's result.
int iap_inflate_step(iap_inflater *inflater, const uint8_t *input, size_t input_count, size_t *consumed,
                     uint8_t *output, size_t output_count, size_t *produced);

/// zlib's CRC-32 of `count` bytes, continuing `crc`.
uint32_t iap_crc32(uint32_t crc, const uint8_t *bytes, size_t count);

/// `input` raw-deflated into `output` (at least `iap_deflate_bound` bytes); the length, or 0 on failure.
size_t iap_deflate_bound(size_t count);
size_t iap_deflate_raw(const uint8_t *input, size_t count, uint8_t *output, size_t capacity);

#endif
