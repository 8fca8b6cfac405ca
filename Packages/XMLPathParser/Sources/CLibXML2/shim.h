// libxml2's parser, SAX2 and errors. Debian builds libxml2 with ICU, and its encoding.h then
// includes ICU's headers, whose types clash with the ICU that Foundation bundles when one
// Swift file imports both. Nothing here uses ICU's converters (libxml2 keeps them behind
// pointers), so the headers are read without them.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

// libxml2 prints what it finds outside a parser's callbacks (an encoding that does not convert,
// an entity it cannot load) through its generic error handler, to standard error. The parser
// reports every error of a parse through its own callback, so that output goes nowhere: a
// program's standard error is its own.
static void fetcher_xml_ignore(void *context, const char *message, ...) {
  (void)context;
  (void)message;
}

static inline void fetcher_xml_silence_generic_errors(void) {
  xmlSetGenericErrorFunc(NULL, fetcher_xml_ignore);
}
