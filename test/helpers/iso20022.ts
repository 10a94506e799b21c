/**
 * XSD validation of the ISO 20022 documents with libxml2 (compiled to WebAssembly): each schema is compiled
 * once per test file (`XsdValidator.fromDoc`, ~50 us per document afterwards) from the copies in
 * test/fixtures/iso20022/ (Apache-2.0, see its README); every parsed document is disposed.
 */
import { XmlDocument, XmlLibError, XsdValidator } from "libxml2-wasm";

export type IsoSchema = "pain.013.001.08" | "camt.054.001.08";

const validators = new Map<IsoSchema, XsdValidator>();

async function validatorFor(schema: IsoSchema): Promise<XsdValidator> {
  let validator = validators.get(schema);
  if (!validator) {
    const xsd = await Bun.file(new URL(`../fixtures/iso20022/${schema}.xsd`, import.meta.url)).text();
    // The validator keeps what it needs of the schema document (kept alive with it for the file's life).
    validator = XsdValidator.fromDoc(XmlDocument.fromString(xsd));
    validators.set(schema, validator);
  }
  return validator;
}

/** libxml2's messages for `xml` against the schema; [] when it is valid. */
export async function xsdErrors(schema: IsoSchema, xml: string): Promise<string[]> {
  const validator = await validatorFor(schema);
  const doc = XmlDocument.fromString(xml);
  try {
    validator.validate(doc);
    return [];
  } catch (e) {
    if (e instanceof XmlLibError) return e.details.map((d) => `${d.line}: ${d.message.trim()}`);
    throw e;
  } finally {
    doc.dispose();
  }
}

/** The text of every element named `name` (no namespace prefix: the documents use a default namespace). */
export const textsOf = (xml: string, name: string): string[] =>
  [...xml.matchAll(new RegExp(`<${name}(?: [^>]*)?>([^<]*)</${name}>`, "g"))].map((m) => m[1]!.replace(/&amp;/g, "&").replace(/&lt;/g, "<"));
