#include "CInflate.h"

#include <stdlib.h>
#include <zlib.h>

// zlib keeps the stream's address and checks it on every call: it lives here, never moved.
struct iap_inflater {
    z_stream stream;
};

iap_inflater *iap_inflater_create(void) {
    iap_inflater *inflater = calloc(1, sizeof *inflater);
    if (!inflater) return NULL;
    if (inflateInit2(&inflater->stream, -MAX_WBITS) != Z_OK) {
        free(inflater);
        return NULL;
    }
    return inflater;
}

void iap_inflater_free(iap_inflater *inflater) {
    if (!inflater) return;
    inflateEnd(&inflater->stream);
    free(inflater);
}

int iap_inflate_step(iap_inflater *inflater, const uint8_t *input, size_t input_count, size_t *consumed,
                     uint8_t *output, size_t output_count, size_t *produced) {
    z_stream *stream = &inflater->stream;
    stream->next_in = input_count > 0 ? (Bytef *)input : Z_NULL;
    stream->avail_in = (uInt)input_count;
    stream->next_out = output;
    stream->avail_out = (uInt)output_count;
    int result = inflate(stream, Z_NO_FLUSH);
    *consumed = input_count - stream->avail_in;
    *produced = output_count - stream->avail_out;
    stream->next_in = Z_NULL;
    stream->next_out = Z_NULL;
    return result;
}

uint32_t iap_crc32(uint32_t crc, const uint8_t *bytes, size_t count) {
    return (uint32_t)crc32(crc, bytes, (uInt)count);
}

size_t iap_deflate_bound(size_t count) {
    return (size_t)compressBound((uLong)count) + 64;
}

size_t iap_deflate_raw(const uint8_t *input, size_t count, uint8_t *output, size_t capacity) {
    z_stream stream = {0};
    if (deflateInit2(&stream, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)count;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int result = deflate(&stream, Z_FINISH);
    size_t length = capacity - stream.avail_out;
    deflateEnd(&stream);
    return result == Z_STREAM_END ? length : 0;
}
