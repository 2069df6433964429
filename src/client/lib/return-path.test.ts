import { describe, expect, it } from 'vitest';
import { returnPathOf, safeReturnPath, signInPath } from './return-path';

describe('safeReturnPath', () => {
  it.each([
    ['/face-training/1', '/face-training/1'],
    ['/simple-preview?templateId=3', '/simple-preview?templateId=3'],
    ['/people#voices', '/people#voices'],
    ['/admin/videos', '/admin/videos'],
  ])('follows the path of this site %s', (next, expected) => {
    expect(safeReturnPath(next)).toBe(expected);
  });

  it.each([
    null,
    undefined,
    '',
    'people',
    'https://evil.example/',
    '//evil.example/people',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'javascript:alert(1)',
    ' /people',
    '/auth',
    '/auth?next=/people',
    '/landing',
  ])('goes home for %j', (next) => {
    expect(safeReturnPath(next)).toBe('/');
  });
});

describe('signInPath and returnPathOf', () => {
  it('round-trip a page with its query through the address', () => {
    const address = signInPath('/simple-preview?templateId=3&x=a b');
    expect(address).toBe(`/auth?next=${encodeURIComponent('/simple-preview?templateId=3&x=a%20b')}`);
    expect(returnPathOf(address.slice('/auth'.length))).toBe('/simple-preview?templateId=3&x=a%20b');
  });

  it('leaves home out of the address', () => {
    expect(signInPath('/')).toBe('/auth');
    expect(returnPathOf('')).toBe('/');
    expect(returnPathOf('?next=%2F%2Fevil.example')).toBe('/');
  });
});
