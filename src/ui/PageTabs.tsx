// The full page's two pages as links: the planner and the Validation page. Links,
// so they work from the keyboard and open in a new tab; route.ts keeps the
// configuration in place when they are followed, and Back returns.

import { usePlanner } from '../state/react.ts';
import { encodeConfigFragment } from '../state/url-codec.ts';
import { SETTLE_MS, useSettledValue } from './useSettledValue.ts';
import { VALIDATION_HASH, followTab, type PageRoute } from './route.ts';

const TAB =
  'inline-block rounded-t border-b-2 px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 ' +
  'focus-visible:outline-blue-700 dark:focus-visible:outline-blue-300';
const CURRENT = 'border-blue-700 text-gray-900 dark:border-blue-300 dark:text-gray-50';
const OTHER = 'border-transparent text-blue-800 underline underline-offset-4 hover:border-gray-400 dark:text-blue-300';

export function PageTabs({ route }: { route: PageRoute }) {
  // Re-encoded once the input settles, not on every step of a dragged slider.
  const document = useSettledValue(
    usePlanner((s) => s.document),
    SETTLE_MS.rest,
  );
  // Back to the planner with the configuration in the link, so it opens the same in a new tab too.
  const plannerHref = `#${encodeConfigFragment(document)}`;
  const tabs = [
    { route: 'planner', href: plannerHref, label: 'Planner' },
    { route: 'validation', href: VALIDATION_HASH, label: 'Validation against published runs' },
  ] as const;
  return (
    <nav aria-label="Pages" className="border-b border-gray-300 dark:border-gray-700">
      <ul className="flex flex-wrap gap-1">
        {tabs.map((tab) => (
          <li key={tab.route}>
            <a
              href={tab.href}
              onClick={(event) => followTab(event, tab.route)}
              aria-current={tab.route === route ? 'page' : undefined}
              data-testid={`tab-${tab.route}`}
              className={`${TAB} ${tab.route === route ? CURRENT : OTHER}`}
            >
              {tab.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
