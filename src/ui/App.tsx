// The page: the full planner, or the compact embed view for `?embed=1`.

import { lazy, type ComponentType } from 'react';
import { usePlanner } from '../state/react.ts';
import { CostSection } from './controls/CostSection.tsx';
import { FrameSection } from './controls/FrameSection.tsx';
import { FrameworkSection } from './controls/FrameworkSection.tsx';
import { HardwareSection } from './controls/HardwareSection.tsx';
import { MemorySection } from './controls/MemorySection.tsx';
import { ModelSection } from './controls/ModelSection.tsx';
import { ParallelSection } from './controls/ParallelSection.tsx';
import { PrecisionSection } from './controls/PrecisionSection.tsx';
import { ScheduleSection } from './controls/ScheduleSection.tsx';
import { EmbedView } from './EmbedView.tsx';
import { HistoryButtons, HistoryKeys, PresetNote } from './History.tsx';
import { Notices } from './Notices.tsx';
import { PageTabs } from './PageTabs.tsx';
import { Results } from './Results.tsx';
import { useRoute } from './route.ts';
import { ShareBar } from './ShareBar.tsx';
import { PhoneStrip } from './frame/PhoneStrip.tsx';
import { SkipLink } from './frame/SkipLink.tsx';
import { ValidationRoute } from './validation/ValidationRoute.tsx';
import { WhenIdle } from './WhenIdle.tsx';

const CalibrateSection = lazy(() => import('./calibrate/CalibrateSection.tsx').then((m) => ({ default: m.CalibrateSection })));
const LogSection = lazy(() => import('./log/LogSection.tsx').then((m) => ({ default: m.LogSection })));

function FullPage() {
  const route = useRoute();
  return (
    <div className="mx-auto flex max-w-[96rem] flex-col gap-4 p-4">
      {route === 'planner' && <SkipLink />}
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-gray-900 dark:text-gray-50">LLM training planner</h1>
          <p className="text-sm text-gray-700 dark:text-gray-300">Will this training run fit, how fast will it go, what will it cost?</p>
        </div>
        {route === 'planner' && (
          <div className="flex flex-wrap items-start gap-2">
            <HistoryButtons />
            <ShareBar />
          </div>
        )}
      </header>
      <PageTabs route={route} />
      {route === 'validation' ? <ValidationRoute /> : <PlannerBody />}
      <footer className="text-xs text-gray-700 dark:text-gray-300">
        Every formula names its source under “Formula and source”. Runs entirely in your browser; nothing is sent anywhere.
      </footer>
    </div>
  );
}

function PlannerBody() {
  return (
    <>
      <HistoryKeys />
      <Notices />
      <PresetNote />
      <PhoneStrip />
      <main className="grid items-start gap-4 min-[700px]:grid-cols-[minmax(15rem,2fr)_minmax(0,3fr)] xl:grid-cols-[26rem_minmax(0,1fr)]">
        {/* The run's frame first (model, GPU type and count, token budget, price: ux.md principle 10), then the layout knobs
            (layout, schedule, memory savers), the model's and cluster's details, the finer settings and the calibration.
            Each section folds (controls/Section.tsx). */}
        <div className="flex min-w-0 flex-col gap-4">
          <FrameSection />
          <ParallelSection />
          {/* Below the first screen on a phone and a laptop: each group mounts in an idle moment of its own after the
              first paint (WhenIdle), so the page's first layout is two sections, not nine (issue 31 item 6). */}
          {LATER_GROUPS.map(({ round, sections }, i) => (
            <WhenIdle key={i} round={round}>
              {sections.map((Part, j) => (
                <Part key={j} />
              ))}
            </WhenIdle>
          ))}
        </div>
        <Results />
      </main>
    </>
  );
}

/** The sections below the first screen, in the page's order, each group with the idle round it mounts in (WhenIdle). */
const LATER_GROUPS: readonly { readonly round: number; readonly sections: readonly ComponentType[] }[] = [
  { round: 1, sections: [ScheduleSection, MemorySection] },
  { round: 2, sections: [ModelSection] },
  { round: 2, sections: [HardwareSection, PrecisionSection] },
  { round: 3, sections: [FrameworkSection, CostSection] },
  { round: 3, sections: [CalibrateSection] },
  { round: 3, sections: [LogSection] },
];

export function App() {
  const embed = usePlanner((s) => s.embed);
  return embed ? <EmbedView /> : <FullPage />;
}
