/* core/xml.c -- XML loading with schema validation, and embedded resources. */
#include "iw.h"

#include <libxml/parser.h>
#include <libxml/xmlschemas.h>
#include <ctype.h>
#include <string.h>

const struct iw_resource *iw_resource_find(const char *name)
{
	for (size_t i = 0; i < iw_resource_count; i++)
		if (strcmp(iw_resources[i].name, name) == 0)
			return &iw_resources[i];
	return NULL;
}

/* libxml2 reports through callbacks; keep only the first error, formatted as
 * "name:line:col: message" with the trailing newline removed. */
struct xml_errctx {
	const char *name;
	struct iw_err *e;
};

static void on_structured_error(void *ctx, xmlErrorPtr err)
{
	struct xml_errctx *c = ctx;
	if (!err || err->level < XML_ERR_ERROR || c->e->code)
		return;
	char msg[1024];
	snprintf(msg, sizeof msg, "%s", err->message ? err->message : "invalid XML");
	size_t n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = 0;
	iw_fail(c->e, IW_EINPUT, "%s:%d:%d: %s", c->name, err->line, err->int2, msg);
}

int iw_xml_load(const char *name, const char *text, size_t len, const char *xsd_resource,
		struct _xmlDoc **out, struct iw_err *e)
{
	*out = NULL;
	struct xml_errctx ctx = {name, e};
	xmlParserCtxtPtr pc = xmlNewParserCtxt();
	if (!pc)
		return iw_fail(e, IW_ERUN, "%s: out of memory", name);
	xmlSetStructuredErrorFunc(&ctx, on_structured_error);
	xmlDocPtr doc = xmlCtxtReadMemory(pc, text, (int)len, name, NULL,
					  XML_PARSE_NONET | XML_PARSE_NOENT * 0 | XML_PARSE_NOBLANKS);
	xmlFreeParserCtxt(pc);
	if (!doc) {
		xmlSetStructuredErrorFunc(NULL, NULL);
		if (!e->code)
			iw_fail(e, IW_EINPUT, "%s:1:1: expected a well-formed XML document", name);
		return -e->code;
	}
	int rc = 0;
	if (xsd_resource) {
		const struct iw_resource *xsd = iw_resource_find(xsd_resource);
		if (!xsd) {
			xmlFreeDoc(doc);
			xmlSetStructuredErrorFunc(NULL, NULL);
			return iw_fail(e, IW_ERUN, "internal: schema %s is not embedded", xsd_resource);
		}
		struct xml_errctx sctx = {xsd_resource, e};
		xmlSchemaParserCtxtPtr spc = xmlSchemaNewMemParserCtxt(xsd->data, (int)xsd->len);
		xmlSchemaSetParserStructuredErrors(spc, on_structured_error, &sctx);
		xmlSchemaPtr schema = spc ? xmlSchemaParse(spc) : NULL;
		if (!schema) {
			rc = e->code ? -e->code : iw_fail(e, IW_ERUN, "internal: schema %s does not parse", xsd_resource);
		} else {
			xmlSchemaValidCtxtPtr vc = xmlSchemaNewValidCtxt(schema);
			xmlSchemaSetValidStructuredErrors(vc, on_structured_error, &ctx);
			int v = vc ? xmlSchemaValidateDoc(vc, doc) : -1;
			if (v != 0)
				rc = e->code ? -e->code
					     : iw_fail(e, IW_EINPUT, "%s: does not match the schema %s", name, xsd_resource);
			if (vc)
				xmlSchemaFreeValidCtxt(vc);
			xmlSchemaFree(schema);
		}
		if (spc)
			xmlSchemaFreeParserCtxt(spc);
	}
	xmlSetStructuredErrorFunc(NULL, NULL);
	if (rc) {
		xmlFreeDoc(doc);
		return rc;
	}
	*out = doc;
	return 0;
}

/* A file that is not XML at all, where a configuration or technology file
 * was expected, is most often one from another simulator: say what is read
 * instead (appended to the parser's message). */
static void not_xml_hint(const char *text, size_t len, const char *xsd_resource, struct iw_err *e)
{
	size_t i = 0;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) /* UTF-8 byte-order mark */
		i = 3;
	while (i < len && isspace((unsigned char)text[i]))
		i++;
	if (i < len && text[i] == '<')
		return;
	const char *hint =
		memmem(text, len, "-gpgpu_", 7) ? " (a GPGPU-Sim/Accel-Sim gpgpusim.config? issuewatt reads its own XML"
		: " (issuewatt reads XML here";
	int cfg = strstr(xsd_resource, "config") != NULL;
	size_t n = strlen(e->msg);
	const char *dir = cfg ? "perf/presets/" : "tech/";
	snprintf(e->msg + n, sizeof e->msg - n, "%s: copy %s from %s (installed in PREFIX/share/issuewatt/%s)%s)", hint,
		 cfg ? "a preset" : "a technology file", dir, dir, cfg ? "; 'issuewatt run --help-config' lists the keys" : "");
}

int iw_xml_load_preset_or_file(const char *arg, const char *dir, const char *xsd_resource,
			       struct _xmlDoc **doc, char **text_out, char **origin_out, struct iw_err *e)
{
	char rname[512];
	snprintf(rname, sizeof rname, "%s/%s.xml", dir, arg);
	const struct iw_resource *r = strchr(arg, '/') || strchr(arg, '.') ? NULL : iw_resource_find(rname);
	char *text = NULL;
	size_t len = 0;
	const char *origin = arg;
	if (r) {
		text = iw_strdup(r->data);
		len = r->len;
		origin = rname;
		if (!text)
			return iw_fail(e, IW_ERUN, "out of memory");
	} else {
		/* each kind of preset has its own list: 'list presets' is the GPUs' */
		int tech = strcmp(dir, "tech") == 0;
		if (!strchr(arg, '/') && !strchr(arg, '.'))
			return iw_fail(e, IW_EINPUT, "'%s': no such %s preset (see 'issuewatt list %s') and not a file name",
				       arg, tech ? "technology/device" : "GPU configuration", tech ? "tech" : "presets");
		int rc = iw_read_file(arg, &text, &len, e);
		if (rc)
			return rc;
	}
	int rc = iw_xml_load(origin, text, len, xsd_resource, doc, e);
	if (rc == -IW_EINPUT && !r)
		not_xml_hint(text, len, xsd_resource, e);
	if (rc == 0 && origin_out) {
		*origin_out = iw_strdup(origin);
		if (!*origin_out)
			rc = iw_fail(e, IW_ERUN, "out of memory");
	}
	if (rc == 0 && text_out)
		*text_out = text;
	else
		iw_free(text);
	if (rc && *doc) {
		xmlFreeDoc(*doc);
		*doc = NULL;
	}
	return rc;
}
