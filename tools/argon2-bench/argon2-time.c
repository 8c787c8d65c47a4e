/*
 * argon2-time: times libargon2's argon2_hash (raw output), the anchor of tools/bench-argon2.
 *
 *   argon2-time VARIANT MEMORY_KIB PASSES LANES ITERATIONS
 *
 * VARIANT is argon2d, argon2i or argon2id. Derives an 80-byte tag (PuTTY's length) from a fixed
 * password and 16-byte salt once to warm up, then ITERATIONS times, and prints the mean
 * milliseconds per derivation and the first 8 bytes of the tag in hex (which the Swift program
 * prints too, so the script can check both computed the same thing).
 */
#include <argon2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: argon2-time VARIANT MEMORY_KIB PASSES LANES ITERATIONS\n");
        return 64;
    }
    argon2_type type;
    if (strcmp(argv[1], "argon2d") == 0) type = Argon2_d;
    else if (strcmp(argv[1], "argon2i") == 0) type = Argon2_i;
    else if (strcmp(argv[1], "argon2id") == 0) type = Argon2_id;
    else { fprintf(stderr, "argon2-time: unknown variant %s\n", argv[1]); return 64; }
    uint32_t memory = (uint32_t)strtoul(argv[2], NULL, 10);
    uint32_t passes = (uint32_t)strtoul(argv[3], NULL, 10);
    uint32_t lanes = (uint32_t)strtoul(argv[4], NULL, 10);
    int iterations = atoi(argv[5]);

    const char *password = "correct horse battery staple";
    uint8_t salt[16];
    for (int i = 0; i < 16; i++) salt[i] = (uint8_t)(i * 17 + 1);
    uint8_t tag[80];

    int status = argon2_hash(passes, memory, lanes, password, strlen(password), salt, sizeof salt,
                             tag, sizeof tag, NULL, 0, type, ARGON2_VERSION_13);
    if (status != ARGON2_OK) { fprintf(stderr, "argon2-time: %s\n", argon2_error_message(status)); return 1; }
    double start = now_ms();
    for (int i = 0; i < iterations; i++) {
        argon2_hash(passes, memory, lanes, password, strlen(password), salt, sizeof salt,
                    tag, sizeof tag, NULL, 0, type, ARGON2_VERSION_13);
    }
    double elapsed = now_ms() - start;
    printf("%.3f ", elapsed / iterations);
    for (int i = 0; i < 8; i++) printf("%02x", tag[i]);
    printf("\n");
    return 0;
}
