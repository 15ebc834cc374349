// zlib, for the .ipa reader's inflation (ZIP's "deflate" method is raw deflate: no zlib header).
// zlib's `inflateInit2` is a macro, which Swift cannot call: `iap_inflate_init_raw` wraps it.
#ifndef CINFLATE_H
#define CINFLATE_H

#include <zlib.h>

/// Starts `stream` for a raw deflate stream (window bits -15). Returns zlib's Z_OK on success.
int iap_inflate_init_raw(z_streamp stream);

#endif
