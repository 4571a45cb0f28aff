/*
 * libical's own parse and serialiser, alone in a process: the reference
 * HorariBench sets our import and export beside (time and peak memory).
 *
 *   cc -O2 Benchmarks/libical_ref.c $(pkg-config --cflags --libs libical) -o .build/libical_ref
 *   .build/libical_ref parse FILE      -> "SECONDS PEAK_BYTES"
 *   .build/libical_ref serialize FILE  -> "SECONDS BYTES_WRITTEN"
 *
 * `parse` times icalparser_parse_string on the whole file, read into memory
 * first (as our import reads it in blocks, we count the file's bytes in
 * neither time); its peak is the kernel's VmHWM for this process, with the
 * text and libical's tree both alive. `serialize` parses, then times
 * icalcomponent_as_ical_string_r on the tree. Best of `rounds` for the times.
 */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static long peak_bytes(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0) kb = strtol(line + 6, NULL, 10);
    fclose(f);
    return kb < 0 ? -1 : kb * 1024;
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc(size + 1);
    if (!text || fread(text, 1, size, f) != (size_t)size) { fprintf(stderr, "%s: cannot read\n", path); exit(1); }
    text[size] = 0;
    fclose(f);
    return text;
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[1], "parse") && strcmp(argv[1], "serialize"))) {
        fprintf(stderr, "usage: %s parse|serialize FILE\n", argv[0]);
        return 2;
    }
    icalerror_set_errors_are_fatal(0);
    char *text = read_file(argv[2]);
    int rounds = 3;
    double best = 1e9;
    size_t written = 0;
    if (strcmp(argv[1], "parse") == 0) {
        /* The peak is taken from the first round, before any tree is freed. */
        long peak = -1;
        for (int i = 0; i < rounds; i++) {
            double t = now();
            icalcomponent *tree = icalparser_parse_string(text);
            t = now() - t;
            if (!tree) { fprintf(stderr, "libical could not parse %s\n", argv[2]); return 1; }
            if (peak < 0) peak = peak_bytes();
            if (t < best) best = t;
            icalcomponent_free(tree);
        }
        printf("%.6f %ld\n", best, peak);
    } else {
        icalcomponent *tree = icalparser_parse_string(text);
        if (!tree) { fprintf(stderr, "libical could not parse %s\n", argv[2]); return 1; }
        for (int i = 0; i < rounds; i++) {
            double t = now();
            char *out = icalcomponent_as_ical_string_r(tree);
            t = now() - t;
            if (out) { written = strlen(out); icalmemory_free_buffer(out); }
            if (t < best) best = t;
        }
        icalcomponent_free(tree);
        printf("%.6f %zu\n", best, written);
    }
    free(text);
    return 0;
}
