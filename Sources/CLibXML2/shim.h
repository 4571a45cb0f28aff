// libxml2's streaming reader (xmlTextReader), CalendarStore's XML: WebDAV's
// multistatus answers (WebDAVXML.swift).
//
// Loaded when the first answer is read (`horari_xml_load`), not linked, as
// libcurl is (CCurl): Foundation's XMLParser is in FoundationXML, a library
// of its own over libxml2, and linking it cost every `horari` process about
// 1 ms and 0.65 MB at start (Docs/CalDAV.md), a CalDAV client or not.
//
// No libxml2 header is needed to build: its headers live under
// /usr/include/libxml2, which the compiler does not search, and asking
// pkg-config for that path would link the library too. The few functions
// used are declared here as libxml2 2.9 to 2.14 export them (xmlreader.h,
// xmlerror.h), with the reader as an opaque pointer.
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

/// An `xmlTextReader`, never looked inside.
typedef struct horari_xml_reader horari_xml_reader;

/// The leading fields of libxml2's `struct _xmlError`, the only ones read.
typedef struct {
    int domain;
    int code;
    const char *message;
    int level;
    const char *file;
    int line;
} horari_xml_error;

/// `xmlParserOption`s (parser.h).
enum {
    /// Suppress error and warning reports (they are read from the last error instead).
    HORARI_XML_PARSE_NOERROR = 1 << 5,
    HORARI_XML_PARSE_NOWARNING = 1 << 6,
    /// Never fetch anything over the network.
    HORARI_XML_PARSE_NONET = 1 << 11,
    /// Read the bytes in the encoding given, whatever the document declares.
    HORARI_XML_PARSE_IGNORE_ENC = 1 << 21,
    /// No hard-coded limit on a text node's size (10,000,000 bytes without it).
    HORARI_XML_PARSE_HUGE = 1 << 19,
};

/// `xmlReaderTypes` (xmlreader.h): what `read` stopped at.
enum {
    HORARI_XML_ELEMENT = 1,
    HORARI_XML_TEXT = 3,
    HORARI_XML_CDATA = 4,
    HORARI_XML_ENTITY_REFERENCE = 5,
    HORARI_XML_DOCUMENT_TYPE = 10,
    HORARI_XML_WHITESPACE = 13,
    HORARI_XML_SIGNIFICANT_WHITESPACE = 14,
    HORARI_XML_END_ELEMENT = 15,
};

/// The libxml2 functions CalendarStore calls, found in the loaded library.
typedef struct {
    void (*init_parser)(void);
    horari_xml_reader *(*reader_for_memory)(const char *buffer, int size, const char *url, const char *encoding, int options);
    int (*read)(horari_xml_reader *);
    int (*node_type)(horari_xml_reader *);
    int (*is_empty_element)(horari_xml_reader *);
    const unsigned char *(*local_name)(horari_xml_reader *);
    const unsigned char *(*namespace_uri)(horari_xml_reader *);
    const unsigned char *(*value)(horari_xml_reader *);
    int (*line_number)(horari_xml_reader *);
    void (*free_reader)(horari_xml_reader *);
    const horari_xml_error *(*last_error)(void);
    void (*reset_last_error)(void);
} horari_xml;

/// Loads libxml2 (`libxml2.so.2`, else `libxml2.so.16`, the name from
/// libxml2 2.14 on; `libxml2.2.dylib` on Apple platforms), fills `api` and
/// initialises the parser (`xmlInitParser`, which libxml2 2.9 wants done
/// once before any thread parses): 0 when every function was found, else
/// -1 with what went wrong in `error`.
static inline int horari_xml_load(horari_xml *api, char *error, size_t capacity) {
#if defined(__APPLE__)
    void *library = dlopen("/usr/lib/libxml2.2.dylib", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *first = dlerror();
        snprintf(error, capacity, "%s", first != NULL ? first : "libxml2.2.dylib could not be opened");
        return -1;
    }
#else
    void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        // Copied at once: dlerror's text is overwritten by the next failure.
        const char *first = dlerror();
        snprintf(error, capacity, "%s", first != NULL ? first : "libxml2.so.2 could not be opened");
        library = dlopen("libxml2.so.16", RTLD_NOW | RTLD_LOCAL);
        if (library == NULL) return -1;
    }
#endif
#define HORARI_XML_FIND(field, name) \
    if ((api->field = (__typeof__(api->field))dlsym(library, name)) == NULL) { \
        snprintf(error, capacity, "libxml2 has no %s", name); \
        dlclose(library); \
        return -1; \
    }
    HORARI_XML_FIND(init_parser, "xmlInitParser")
    HORARI_XML_FIND(reader_for_memory, "xmlReaderForMemory")
    HORARI_XML_FIND(read, "xmlTextReaderRead")
    HORARI_XML_FIND(node_type, "xmlTextReaderNodeType")
    HORARI_XML_FIND(is_empty_element, "xmlTextReaderIsEmptyElement")
    HORARI_XML_FIND(local_name, "xmlTextReaderConstLocalName")
    HORARI_XML_FIND(namespace_uri, "xmlTextReaderConstNamespaceUri")
    HORARI_XML_FIND(value, "xmlTextReaderConstValue")
    HORARI_XML_FIND(line_number, "xmlTextReaderGetParserLineNumber")
    HORARI_XML_FIND(free_reader, "xmlFreeTextReader")
    HORARI_XML_FIND(last_error, "xmlGetLastError")
    HORARI_XML_FIND(reset_last_error, "xmlResetLastError")
#undef HORARI_XML_FIND
    api->init_parser();
    // The library stays loaded for the process's life: its functions are in `api`.
    return 0;
}

/// A reader of `size` bytes at `buffer`, read as UTF-8 whatever they declare
/// (with `HORARI_XML_PARSE_IGNORE_ENC`): the bytes WebDAVXML looked at.
static inline horari_xml_reader *horari_xml_reader_for_memory(const horari_xml *api, const void *buffer, int size, int options) {
    return api->reader_for_memory((const char *)buffer, size, NULL, "UTF-8", options);
}
static inline int horari_xml_read(const horari_xml *api, horari_xml_reader *reader) { return api->read(reader); }
static inline int horari_xml_node_type(const horari_xml *api, horari_xml_reader *reader) { return api->node_type(reader); }
static inline int horari_xml_is_empty_element(const horari_xml *api, horari_xml_reader *reader) { return api->is_empty_element(reader); }
static inline const unsigned char *horari_xml_local_name(const horari_xml *api, horari_xml_reader *reader) { return api->local_name(reader); }
static inline const unsigned char *horari_xml_namespace_uri(const horari_xml *api, horari_xml_reader *reader) { return api->namespace_uri(reader); }
static inline const unsigned char *horari_xml_value(const horari_xml *api, horari_xml_reader *reader) { return api->value(reader); }
static inline int horari_xml_line_number(const horari_xml *api, horari_xml_reader *reader) { return api->line_number(reader); }
static inline void horari_xml_free_reader(const horari_xml *api, horari_xml_reader *reader) { api->free_reader(reader); }
static inline const horari_xml_error *horari_xml_last_error(const horari_xml *api) { return api->last_error(); }
static inline void horari_xml_reset_last_error(const horari_xml *api) { api->reset_last_error(); }
