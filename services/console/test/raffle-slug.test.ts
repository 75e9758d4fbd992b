import { RAFFLE_SLUG } from '@raffle/contracts/domain-values';
import { describe, expect, it } from 'vitest';
import { EMPTY_FORM, requiredFieldProblems, slugify, withDerivedSlug } from '../src/pages/raffles/raffle-form-values.js';

const slugRule = new RegExp(RAFFLE_SLUG.pattern);

describe('the slug a raffle title suggests', () => {
  it.each([
    ['Nebula Beta Testers', 'nebula-beta-testers'],
    ['  Spring   Drop!! 2026 ', 'spring-drop-2026'],
    ['Café Crème — Édition Spéciale', 'cafe-creme-edition-speciale'],
    ['OG_holders / wave #3', 'og-holders-wave-3'],
    ['--Already-hyphenated--', 'already-hyphenated'],
  ])('%j gives %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('gives nothing rather than a slug the API refuses', () => {
    for (const title of ['', 'A', '!!', 'ab', '日本語のタイトル']) expect(slugify(title)).toBe('');
  });

  it('cuts a long title at a word to the API length, and a single long word at the length', () => {
    const words = slugify('The grand community raffle of the season for early supporters and testers of the beta');
    expect(words.length).toBeLessThanOrEqual(RAFFLE_SLUG.maxLength);
    expect(words).toBe('the-grand-community-raffle-of-the-season-for-early-supporters');
    const oneWord = slugify('x'.repeat(100));
    expect(oneWord).toBe('x'.repeat(RAFFLE_SLUG.maxLength));
  });

  it.each(['Nebula Beta Testers', 'a b', 'Ünïcödé ✨ 100%', `${'word '.repeat(30)}`, 'x'.repeat(80)])('what it gives for %j is a slug the contract takes', (title) => {
    const slug = slugify(title);
    expect(slug.length).toBeGreaterThanOrEqual(RAFFLE_SLUG.minLength);
    expect(slug.length).toBeLessThanOrEqual(RAFFLE_SLUG.maxLength);
    expect(slug).toMatch(slugRule);
  });
});

describe('the new raffle form', () => {
  const typeTitle = (form: typeof EMPTY_FORM, title: string) => withDerivedSlug(form, { ...form, title });
  const typeSlug = (form: typeof EMPTY_FORM, slug: string) => withDerivedSlug(form, { ...form, slug });

  it('fills the slug from the title as it is typed', () => {
    let form = EMPTY_FORM;
    for (const title of ['N', 'Ne', 'Neb', 'Nebula', 'Nebula d', 'Nebula drop']) form = typeTitle(form, title);
    expect(form.slug).toBe('nebula-drop');
  });

  it('leaves the slug alone once it was edited by hand', () => {
    let form = typeTitle(EMPTY_FORM, 'Nebula drop');
    form = typeSlug(form, 'nebula-2026');
    form = typeTitle(form, 'Nebula drop, second wave');
    expect(form.slug).toBe('nebula-2026');
  });
});

describe('the fields a raffle cannot be sent without', () => {
  it('names an empty title and slug, judging only the fields the status still takes', () => {
    expect(requiredFieldProblems({ ...EMPTY_FORM, title: '   ', slug: '' })).toEqual({ title: 'Give the raffle a title.', slug: 'Give the raffle a slug (its title suggests one).' });
    expect(requiredFieldProblems({ ...EMPTY_FORM, title: 'Spring drop', slug: 'spring-drop' })).toEqual({});
    // An open raffle's slug no longer changes: only its title is judged.
    expect(requiredFieldProblems({ ...EMPTY_FORM, title: '', slug: '' }, new Set(['title']))).toEqual({ title: 'Give the raffle a title.' });
  });
});
