import type { z } from 'zod';

/** Every problem zod found, in one line: `path: message; …` (`(root)` for the value itself). */
export function zodProblems(error: z.ZodError, root = '(root)'): string {
  return error.issues.map((i) => `${i.path.join('.') || root}: ${i.message}`).join('; ');
}
