/**
 * The Link page's words: English and Spanish have the same shape (the type
 * checks most of it; this catches what it cannot, such as an empty string),
 * and language tags map to the language the page speaks.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LINK_STRINGS, linkLanguage } from '../../sandbox/link-page/app/link-strings.js';

/** Each entry's path and kind (`string`, `function`, `object`), recursively. */
function shape(value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object') return [`${path}: ${typeof value}`];
  return Object.keys(value)
    .sort()
    .flatMap((key) => shape((value as Record<string, unknown>)[key], `${path}.${key}`));
}

/** Every string in the dictionary, recursively. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(strings);
}

describe('Link page strings', () => {
  test('English and Spanish have the same keys, of the same kinds', () => {
    assert.deepEqual(shape(LINK_STRINGS.es), shape(LINK_STRINGS.en));
    assert.deepEqual(Object.keys(LINK_STRINGS).sort(), ['en', 'es']);
  });

  test('no word is empty, and the Spanish ones are not the English ones left untranslated', () => {
    for (const language of ['en', 'es'] as const) {
      for (const text of strings(LINK_STRINGS[language])) assert.ok(text.trim() !== '', `an empty ${language} string`);
    }
    const { en, es } = LINK_STRINGS;
    // Brand and badge are names; everything a user reads as a sentence differs.
    assert.notEqual(es.searchHeading, en.searchHeading);
    assert.notEqual(es.introHeading('Acme', true), en.introHeading('Acme', true));
    assert.notEqual(
      es.errorMessage({ type: 'platformError', code: 'JOB_FAILED', message: 'The job failed.', pendingRetry: false }),
      'The job failed.',
    );
  });

  test('es and es-* tags speak Spanish; anything else, or nothing, English', () => {
    for (const tag of ['es', 'es-MX', 'es-419', 'ES-us']) assert.equal(linkLanguage(tag), 'es', tag);
    for (const tag of ['en', 'en-US', 'fr', 'est', 'e', '', null, undefined]) assert.equal(linkLanguage(tag), 'en', String(tag));
  });
});
