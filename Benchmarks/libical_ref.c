/*
 * libical's own parse, serialiser and recurrence expansion: the references
 * HorariBench and Benchmarks/whole_process.py set Horari beside.
 *
 *   cc -O2 Benchmarks/libical_ref.c $(pkg-config --cflags --libs libical) -o .build/libical_ref
 *
 * In-process timings (HorariBench), best of 3 rounds:
 *   .build/libical_ref parse FILE      -> "SECONDS PEAK_BYTES"
 *   .build/libical_ref serialize FILE  -> "SECONDS BYTES_WRITTEN"
 *
 * `parse` times icalparser_parse_string on the whole file, read into memory
 * first (as our import reads it in blocks, we count the file's bytes in
 * neither time); its peak is the kernel's VmHWM for this process, with the
 * text and libical's tree both alive. `serialize` parses, then times
 * icalcomponent_as_ical_string_r on the tree. Best of `rounds` for the times.
 *
 * Whole processes (whole_process.py times and measures the process from
 * outside; each does one job once, prints nothing else, and frees what it made):
 *   .build/libical_ref parse-once FILE              read + parse
 *   .build/libical_ref serialize-once FILE OUT      read + parse + serialise into OUT
 *   .build/libical_ref expand FILE FROM TO          read + parse + expand every VEVENT
 *
 * `expand` writes one line per occurrence that overlaps [FROM, TO) (YYYY-MM-DD,
 * read as wall times in each event's own zone, as `horari occurrences` reads
 * them): "UID START END TZID", START and END as libical writes a time (the
 * wall time in the event's zone). Each series runs on icalrecur_iterator from
 * its DTSTART (or, for a rule without COUNT, icalrecur_iterator_set_start at
 * the window's start less the event's length), EXDATEs and EXRULEs drop
 * occurrences through icalproperty_recurrence_is_excluded, RDATEs add theirs
 * (duplicates are not removed, as libical's own
 * icalcomponent_foreach_recurrence does not), and an instance with a
 * RECURRENCE-ID replaces the series' occurrence at that instant. The end is
 * the start plus the event's length (DTEND - DTSTART, or DURATION), added to
 * the wall time. The occurrence count goes to stderr: "occurrences N".
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

/* The instant a DATE-TIME property names: its TZID resolved against the
 * file's VTIMEZONEs (then libical's built-in zones), as
 * icalcomponent_get_dtstart does for DTSTART. */
static time_t instant(icalproperty *prop, struct icaltimetype t, icalcomponent *root) {
    icaltimezone *zone = (icaltimezone *)t.zone;
    icalparameter *tzid = prop ? icalproperty_get_first_parameter(prop, ICAL_TZID_PARAMETER) : NULL;
    if (!zone && tzid) {
        const char *name = icalparameter_get_tzid(tzid);
        zone = icalcomponent_get_timezone(root, name);
        if (!zone) zone = icaltimezone_get_builtin_timezone_from_tzid(name);
        if (!zone) zone = icaltimezone_get_builtin_timezone(name);
    }
    return icaltime_as_timet_with_zone(t, zone ? zone : icaltimezone_get_utc_timezone());
}

/* The instances with a RECURRENCE-ID: (UID, instant) pairs, sorted. */
struct override { const char *uid; time_t at; };

static int override_compare(const void *a, const void *b) {
    const struct override *x = a, *y = b;
    int c = strcmp(x->uid, y->uid);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

static int uid_compare(const void *key, const void *element) {
    return strcmp((const char *)key, ((const struct override *)element)->uid);
}

struct expansion {
    struct icaltimetype from, to; /* floating: wall times in each event's zone */
    struct override *overrides;
    size_t override_count;
    icalcomponent *root;
    long occurrences;
};

/* Writes the occurrence at START (an event of LENGTH) when it overlaps the window. */
static void emit(struct expansion *x, const char *uid, struct icaltimetype start,
                 struct icaldurationtype length, const char *tzid) {
    struct icaltimetype end = icaltime_add(start, length);
    struct icaltimetype ws = start, we = end;
    ws.zone = we.zone = NULL; /* compare wall times */
    int inside = icaltime_compare(we, ws) > 0
        ? icaltime_compare(ws, x->to) < 0 && icaltime_compare(we, x->from) > 0
        : icaltime_compare(ws, x->from) >= 0 && icaltime_compare(ws, x->to) < 0;
    if (!inside) return;
    /* icaltime_as_ical_string: libical's ring buffer, no allocation to free. */
    printf("%s %s %s %s\n", uid, icaltime_as_ical_string(start), icaltime_as_ical_string(end), tzid ? tzid : "-");
    x->occurrences++;
}

static void expand_event(struct expansion *x, icalcomponent *event) {
    struct icaltimetype dtstart = icalcomponent_get_dtstart(event);
    if (icaltime_is_null_time(dtstart)) return;
    const char *uid = icalcomponent_get_uid(event);
    if (!uid) uid = "";
    icalproperty *start_prop = icalcomponent_get_first_property(event, ICAL_DTSTART_PROPERTY);
    icalparameter *tzid_param = icalproperty_get_first_parameter(start_prop, ICAL_TZID_PARAMETER);
    const char *tzid = tzid_param ? icalparameter_get_tzid(tzid_param) : NULL;
    struct icaldurationtype length = icalcomponent_get_duration(event);
    if (icalcomponent_get_first_property(event, ICAL_RECURRENCEID_PROPERTY)) {
        emit(x, uid, dtstart, length, tzid); /* an instance: its own times */
        return;
    }
    /* This series' moved instances, if any. */
    struct override *moved = NULL, *moved_end = NULL;
    if (x->override_count) {
        struct override *hit = bsearch(uid, x->overrides, x->override_count, sizeof *hit, uid_compare);
        if (hit) {
            moved = moved_end = hit;
            while (moved > x->overrides && strcmp(moved[-1].uid, uid) == 0) moved--;
            while (moved_end < x->overrides + x->override_count && strcmp(moved_end->uid, uid) == 0) moved_end++;
        }
    }
    icalproperty *rrule = icalcomponent_get_first_property(event, ICAL_RRULE_PROPERTY);
    icalproperty *rdate = icalcomponent_get_first_property(event, ICAL_RDATE_PROPERTY);
    if (!rrule && !rdate) {
        if (!icalproperty_recurrence_is_excluded(event, &dtstart, &dtstart))
            emit(x, uid, dtstart, length, tzid);
        return;
    }
    if (rrule) {
        struct icalrecurrencetype rule = icalproperty_get_rrule(rrule);
        icalrecur_iterator *it = icalrecur_iterator_new(rule, dtstart);
        if (!it) return;
        if (rule.count == 0 && !getenv("LIBICAL_REF_FROM_DTSTART")) {
            /* Skip to the window: its start less the event's length. */
            struct icaltimetype skip = x->from;
            struct icaldurationtype back = length;
            back.is_neg = !back.is_neg;
            skip = icaltime_add(skip, back);
            skip.zone = dtstart.zone;
            if (icaltime_compare(skip, dtstart) > 0) icalrecur_iterator_set_start(it, skip);
        }
        for (struct icaltimetype t = icalrecur_iterator_next(it); !icaltime_is_null_time(t);
             t = icalrecur_iterator_next(it)) {
            struct icaltimetype wall = t;
            wall.zone = NULL;
            if (icaltime_compare(wall, x->to) >= 0) break;
            if (icalproperty_recurrence_is_excluded(event, &dtstart, &t)) continue;
            if (moved != moved_end) {
                struct override key = { uid, instant(start_prop, t, x->root) };
                if (bsearch(&key, moved, moved_end - moved, sizeof key, override_compare)) continue;
            }
            emit(x, uid, t, length, tzid);
        }
        icalrecur_iterator_free(it);
    }
    for (; rdate; rdate = icalcomponent_get_next_property(event, ICAL_RDATE_PROPERTY)) {
        struct icaldatetimeperiodtype p = icalproperty_get_rdate(rdate);
        struct icaltimetype t = icaltime_is_null_time(p.time) ? p.period.start : p.time;
        if (icaltime_is_null_time(t) || icalproperty_recurrence_is_excluded(event, &dtstart, &t)) continue;
        emit(x, uid, t, length, tzid);
    }
}

static int expand(icalcomponent *root, const char *from, const char *to) {
    struct expansion x = { icaltime_from_string(from), icaltime_from_string(to), NULL, 0, root, 0 };
    if (icaltime_is_null_time(x.from) || icaltime_is_null_time(x.to)) {
        fprintf(stderr, "FROM and TO are dates: YYYYMMDD or YYYY-MM-DD\n");
        return 2;
    }
    x.from.is_date = x.to.is_date = 0;
    /* First pass: the instances with a RECURRENCE-ID, so their series skip them. */
    size_t capacity = 0;
    for (icalcomponent *c = icalcomponent_get_first_component(root, ICAL_VEVENT_COMPONENT); c;
         c = icalcomponent_get_next_component(root, ICAL_VEVENT_COMPONENT)) {
        icalproperty *rid = icalcomponent_get_first_property(c, ICAL_RECURRENCEID_PROPERTY);
        if (!rid || !icalcomponent_get_uid(c)) continue;
        if (x.override_count == capacity) {
            capacity = capacity ? 2 * capacity : 256;
            x.overrides = realloc(x.overrides, capacity * sizeof *x.overrides);
            if (!x.overrides) { perror("realloc"); exit(1); }
        }
        x.overrides[x.override_count++] =
            (struct override){ icalcomponent_get_uid(c), instant(rid, icalproperty_get_recurrenceid(rid), root) };
    }
    qsort(x.overrides, x.override_count, sizeof *x.overrides, override_compare);
    for (icalcomponent *c = icalcomponent_get_first_component(root, ICAL_VEVENT_COMPONENT); c;
         c = icalcomponent_get_next_component(root, ICAL_VEVENT_COMPONENT))
        expand_event(&x, c);
    free(x.overrides);
    fprintf(stderr, "occurrences %ld\n", x.occurrences);
    return 0;
}

static icalcomponent *parse_or_die(const char *text, const char *path) {
    icalcomponent *tree = icalparser_parse_string(text);
    if (!tree) { fprintf(stderr, "libical could not parse %s\n", path); exit(1); }
    return tree;
}

static int usage(const char *self) {
    fprintf(stderr, "usage: %s parse|serialize FILE\n"
                    "       %s parse-once FILE\n"
                    "       %s serialize-once FILE OUT\n"
                    "       %s expand FILE FROM TO\n", self, self, self, self);
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 3) return usage(argv[0]);
    const char *mode = argv[1];
    icalerror_set_errors_are_fatal(0);
    if (strcmp(mode, "parse-once") == 0 || strcmp(mode, "serialize-once") == 0 || strcmp(mode, "expand") == 0) {
        int serialise = strcmp(mode, "serialize-once") == 0, expanding = strcmp(mode, "expand") == 0;
        if (argc != (serialise ? 4 : expanding ? 5 : 3)) return usage(argv[0]);
        char *text = read_file(argv[2]);
        icalcomponent *tree = parse_or_die(text, argv[2]);
        int status = 0;
        if (serialise) {
            char *out = icalcomponent_as_ical_string_r(tree);
            FILE *f = fopen(argv[3], "wb");
            if (!f || !out || fwrite(out, 1, strlen(out), f) != strlen(out) || fclose(f) != 0) {
                perror(argv[3]);
                return 1;
            }
            icalmemory_free_buffer(out);
        } else if (expanding) {
            static char buffer[1 << 16];
            setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
            status = expand(tree, argv[3], argv[4]);
            if (fflush(stdout) != 0) { perror("stdout"); status = 1; }
        }
        icalcomponent_free(tree);
        free(text);
        return status;
    }
    if (argc != 3 || (strcmp(mode, "parse") && strcmp(mode, "serialize"))) return usage(argv[0]);
    char *text = read_file(argv[2]);
    int rounds = 3;
    double best = 1e9;
    size_t written = 0;
    if (strcmp(mode, "parse") == 0) {
        /* The peak is taken from the first round, before any tree is freed. */
        long peak = -1;
        for (int i = 0; i < rounds; i++) {
            double t = now();
            icalcomponent *tree = parse_or_die(text, argv[2]);
            t = now() - t;
            if (peak < 0) peak = peak_bytes();
            if (t < best) best = t;
            icalcomponent_free(tree);
        }
        printf("%.6f %ld\n", best, peak);
    } else {
        icalcomponent *tree = parse_or_die(text, argv[2]);
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
