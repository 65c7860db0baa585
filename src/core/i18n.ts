/** The two languages cc-linker speaks; zh-CN is the default (`general.language`, docs/design.md#language). */
export type Language = 'zh' | 'en';

/** One text in both languages (a message built where the reader's language is not known yet). */
export type LocalizedText = Readonly<Record<Language, string>>;

type Params = Record<string, string | number>;
type Template = string | ((p: Params) => string);

/** A translator bound to one language: `t('key', {n: 3})`. */
export type Translator<K extends string> = (key: K, params?: Params) => string;

/**
 * Defines one room's message catalog. Each room keeps its own small catalog file (no shared
 * 2,000-line string table); the zh and en halves must have the same keys, which the type enforces.
 *
 * @example
 *   const messages = defineMessages({ zh: { hello: '你好 {name}' }, en: { hello: 'Hello {name}' } });
 *   messages('en')('hello', { name: 'x' }) // 'Hello x'
 */
export function defineMessages<K extends string>(catalog: {
  zh: Record<K, Template>;
  en: Record<K, Template>;
}): (lang: Language) => Translator<K> {
  return (lang) =>
    (key, params = {}) => {
      const template = catalog[lang][key] ?? catalog.zh[key];
      if (typeof template === 'function') return template(params);
      return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
    };
}

/** Parses `general.language` or a `LANG`-style value into a supported language. */
export function parseLanguage(value: string | undefined): Language {
  if (!value) return 'zh';
  return value.toLowerCase().startsWith('en') ? 'en' : 'zh';
}
