import { describe, expect, it } from 'vitest';
import { skippedReason, warningText } from './migrate.ts';

describe('the reason kept for a written record', () => {
  it('joins the destination warnings, or keeps none', () => {
    expect(warningText([], null)).toBeNull();
    expect(warningText(['sold individually: no such setting'], null)).toBe(
      'Not carried over: sold individually: no such setting',
    );
  });

  it('keeps what the first write noted when a relinking write warns of nothing', () => {
    const first = 'Not carried over: sold individually: no such setting';
    expect(warningText([], first)).toBe(first);
    expect(warningText(['sold individually: no such setting', 'up-sells: 1 unknown'], first)).toBe(
      'Not carried over: sold individually: no such setting; up-sells: 1 unknown',
    );
  });

  it('does not carry over a note that was not a warning', () => {
    expect(warningText([], 'Unchanged since the last run; not sent again.')).toBeNull();
    expect(
      warningText([], 'Not carried over: image 2. It will be written again on the next run.'),
    ).toBe('Not carried over: image 2.');
  });
});

describe('the reason kept for a skipped record', () => {
  it('still names what the earlier write could not carry over', () => {
    const unchanged = 'Unchanged since the last run; not sent again.';
    expect(skippedReason(unchanged, null)).toBe(unchanged);
    expect(skippedReason(unchanged, 'Not carried over: featured')).toBe(
      `${unchanged} Not carried over: featured`,
    );
    // Skipped again: the note is not repeated.
    expect(skippedReason(unchanged, `${unchanged} Not carried over: featured`)).toBe(
      `${unchanged} Not carried over: featured`,
    );
    expect(warningText([], `${unchanged} Not carried over: featured`)).toBe(
      'Not carried over: featured',
    );
  });
});
