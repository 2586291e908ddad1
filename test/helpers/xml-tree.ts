// A strict little XML reader for the reports the sandbox writes (JUnit): elements, double-quoted attributes, the five
// predefined entities, an XML declaration, whitespace between elements. Anything else, or a tag closed out of
// order, throws: a report it reads is well-formed for any XML parser a CI uses.

/** One element: its name, attributes (entities decoded) and child elements. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NAME = '[A-Za-z_][\\w.-]*';

function decode(text: string, at: number): string {
  return text.replace(/&([^;]*);|&/g, (whole, entity: string | undefined) => {
    if (entity === undefined || !(entity in ENTITIES)) throw new Error(`bad entity '${whole}' near offset ${at}`);
    return ENTITIES[entity]!;
  });
}

/** Parses a whole document and answers its root element. */
export function parseXml(text: string): XmlElement {
  let i = 0;
  const declaration = /^<\?xml\s[^?]*\?>/.exec(text);
  if (declaration) i = declaration[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const tag = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}="[^"<]*")*)\\s*(/?)>`);
  while (i < text.length) {
    const gap = /^[^<]*/.exec(text.slice(i))![0];
    if (gap.trim() !== '') throw new Error(`text outside the report's elements at offset ${i}: '${gap.trim().slice(0, 40)}'`);
    i += gap.length;
    if (i >= text.length) break;
    const m = tag.exec(text.slice(i));
    if (!m) throw new Error(`malformed tag at offset ${i}: '${text.slice(i, i + 40)}'`);
    const [whole, closing, name, rawAttrs, selfClosing] = m as unknown as [string, string, string, string, string];
    if (closing) {
      if (rawAttrs || selfClosing) throw new Error(`malformed closing tag at offset ${i}`);
      const open = stack.pop();
      if (open?.name !== name) throw new Error(`</${name}> at offset ${i} closes <${open?.name ?? 'nothing'}>`);
    } else {
      if (root && stack.length === 0) throw new Error(`a second root element <${name}> at offset ${i}`);
      const attrs: Record<string, string> = {};
      for (const [, key, value] of rawAttrs.matchAll(new RegExp(`(${NAME})="([^"]*)"`, 'g'))) {
        if (key! in attrs) throw new Error(`attribute ${key} twice at offset ${i}`);
        attrs[key!] = decode(value!, i);
      }
      const element: XmlElement = { name, attrs, children: [] };
      if (stack.length) stack.at(-1)!.children.push(element);
      else root = element;
      if (!selfClosing) stack.push(element);
    }
    i += whole.length;
  }
  if (stack.length || !root) throw new Error(`unclosed <${stack.at(-1)?.name ?? 'root'}>`);
  return root;
}
