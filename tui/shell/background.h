/* background: tasks that only look (the engine probe behind the status bar,
 * a project scan, an image listing). They run and report like any task
 * (shell.h: tui_app_start_task), but quitting does not ask about them: they
 * are cancelled without a word, since nothing is lost. Anything that changes
 * state (a build, a push, a scaffold, a tag or delete) is a normal task, so
 * quitting while it runs still asks first. */
#ifndef BYOC_TUI_BACKGROUND_H
#define BYOC_TUI_BACKGROUND_H

#include "shell.h"

byoc_task *tui_app_start_background_task(tui_app *a, tui_screen *owner, const char *name, byoc_task_fn fn,
                                         void *arg, void (*arg_free)(void *));
/* A background task that reads the project (its arg: a copy of the project directory, freed
 * with free), as the forms that start from byoc.json do: its id, or 0 when it did not start. */
uint64_t tui_app_read_project(tui_app *a, tui_screen *owner, const char *name, byoc_task_fn fn);
/* A background task that no screen owns (the status bar's feed): its events go to on_event. */
typedef void (*tui_task_event_fn)(tui_app *a, const byoc_event *ev);
byoc_task *tui_app_start_background_feed(tui_app *a, const char *name, byoc_task_fn fn, void *arg,
                                         void (*arg_free)(void *), tui_task_event_fn on_event);

#endif
