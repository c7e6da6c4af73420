export * from './constants';
export * from './errors';
export * from './referral-code';
export * from './api/common';
export * from './api/health';
export * from './api/dev-mail';
