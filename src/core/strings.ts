/**
 * The words the widget itself shows (the Link page's own are the service's), in English and Spanish, and how it picks
 * the language: the nearest `lang` attribute (the element's ancestors, across shadow roots, then `<html lang>`). Any
 * other language gets English; right-to-left languages are out of scope.
 */

import type { WidgetStrings } from './widget-strings.js';

export type { WidgetStrings } from './widget-strings.js';

/** The languages the widget's own words come in. */
export type WidgetLanguage = 'en' | 'es';

/** The widget's words in each language it speaks. */
export const WIDGET_STRINGS: Readonly<Record<WidgetLanguage, Readonly<WidgetStrings>>> = {
  en: {
    connect: 'Connect payroll',
    error: "We couldn't connect your payroll account. Please try again.",
    title: 'Connect your payroll account',
    close: 'Close',
    loading: 'Loading…',
  },
  es: {
    connect: 'Conectar nómina',
    error: 'No pudimos conectar tu cuenta de nómina. Inténtalo de nuevo.',
    title: 'Conecta tu cuenta de nómina',
    close: 'Cerrar',
    loading: 'Cargando…',
  },
};

/** The language tag in force for `node`: its nearest `lang`, crossing shadow roots; '' when none says. */
export function languageOf(node: Node): string {
  // The same walk as enclosingModal's (a shadow root's parent is its host), written alike: gzip finds it twice.
  for (let current: Node | null = node; current; current = current instanceof ShadowRoot ? current.host : current.parentNode) {
    if (current instanceof Element && current.hasAttribute('lang')) return current.getAttribute('lang')!.trim();
  }
  return '';
}

/** The widget's words for a language tag (`es`, `es-MX` → Spanish; anything else → English), with overrides. */
export function widgetStrings(languageTag: string, overrides: Partial<WidgetStrings> = {}): WidgetStrings {
  const language: WidgetLanguage = /^es(-|$)/i.test(languageTag) ? 'es' : 'en';
  return { ...WIDGET_STRINGS[language], ...overrides };
}
