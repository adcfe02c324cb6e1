// Shared button styles (contrast checked against white and gray-950).

export const BUTTON =
  'rounded border border-gray-500 bg-white px-3 py-1 text-sm font-medium text-gray-900 hover:bg-gray-100 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 ' +
  'dark:border-gray-400 dark:bg-gray-900 dark:text-gray-100 dark:hover:bg-gray-800 dark:focus-visible:outline-blue-300';
