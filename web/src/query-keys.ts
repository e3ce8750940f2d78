/** Every react-query key of the SPA, so invalidation and prefetching name the same thing. */
export const queryKeys = {
  userInfo: ['user-info'] as const,
};
