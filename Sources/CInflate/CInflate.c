#include "CInflate.h"

int iap_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
