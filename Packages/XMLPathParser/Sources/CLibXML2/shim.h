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
