// The operator console's API contract, apart from the members' (src/index.ts), so a member's
// bundle never carries it: import from '@crw/core/console'.
export * from './api/console';
export * from './api/console-overview';
export * from './api/console-rounds';
export * from './api/console-review';
