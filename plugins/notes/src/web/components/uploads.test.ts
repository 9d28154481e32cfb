import { describe, expect, it } from 'vitest';
import { filesProblem } from './uploads';

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);

describe('filesProblem', () => {
  it('accepts the reimbursement extensions in any case', () => {
    expect(filesProblem(['a.pdf', 'b.GIF', 'c.jpeg', 'd.jpg', 'e.png', 'f.doc', 'g.docx', 'h.xls', 'i.XLSX'].map((n) => file(n)))).toBeNull();
  });
  it('refuses other extensions and names without one', () => {
    expect(filesProblem([file('run.exe')])).toBe('notes:files.badType');
    expect(filesProblem([file('receipt')])).toBe('notes:files.badType');
  });
  it('counts the files a note keeps against the 10', () => {
    expect(filesProblem(Array.from({ length: 11 }, (_, i) => file(`p${i}.png`)))).toBe('notes:files.tooMany');
    expect(filesProblem([file('a.png'), file('b.png')], 9)).toBe('notes:files.tooMany');
    expect(filesProblem([file('a.png')], 9)).toBeNull();
  });
  it('refuses a file over 5 MB and files over 7 MB together', () => {
    expect(filesProblem([file('big.pdf', 5 * 1024 * 1024 + 1)])).toBe('notes:files.tooLarge');
    expect(filesProblem([file('a.pdf', 4 * 1024 * 1024), file('b.pdf', 4 * 1024 * 1024)])).toBe('notes:files.tooLargeTogether');
  });
});
