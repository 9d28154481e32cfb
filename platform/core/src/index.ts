export * from './brand';
export * from './envelope';
export * from './format';
export * from './headers';
export * from './identity';
export * from './lookups';
export * from './plugin';
export * from './roles';
