/** Worker exit codes (docs/architecture.md, "Defaults and models"): the pool and ECS act on them. */
export const EXIT_OK = 0;
export const EXIT_FATAL = 1;
/** Interrupted (spot reclaim, Ctrl-C): restart me; nothing was lost. */
export const EXIT_INTERRUPTED = 75;
/** The start-up self-check found debris: do not restart blindly, look. */
export const EXIT_SELF_CHECK = 78;
