import Timeline

/// What the filters hide in the panes, worked out once per change of the posts and pane list.
extension App {
    /// The panes' filtered views, kept while only the reader's place moves (a scroll): then
    /// only their anchors and read markers are brought up to date.
    func filtered(_ snapshot: TimelineSnapshot) -> [TimelineID: FilteredView] {
        let panes = state.panes.map(\.id)
        if let c = filterCache, c.contentVersion == snapshot.contentVersion, c.panes == panes {
            if c.version == snapshot.version { return c.views }
            var views = c.views
            for id in views.keys {
                views[id]?.view.anchor = snapshot.timelines[id]?.anchor
                views[id]?.view.readMarker = snapshot.timelines[id]?.readMarker
            }
            filterCache = (snapshot.version, snapshot.contentVersion, panes, views)
            return views
        }
        // Decisions about tweets no longer held are let go now and then.
        if filterMemo.count > 2 * snapshot.tweets.count + 1000 { filterMemo = [:] }
        if snapshot.mutedUsers != filterMutes {
            filterMutes = snapshot.mutedUsers
            filterMemo = [:]
        }
        let views = FilteredView.make(snapshot, panes: panes, filters: settings.filters, mutedUsers: snapshot.mutedUsers, memo: &filterMemo)
        filterCache = (snapshot.version, snapshot.contentVersion, panes, views)
        return views
    }

    /// What the panes show: filtered, or everything while the reveal key is in force.
    func filteredContext(_ snapshot: TimelineSnapshot) -> [TimelineID: FilteredView] {
        var views = filtered(snapshot)
        if state.revealMutedUntil != nil {
            for (id, f) in views {
                views[id] = f.revealed(in: snapshot, id, filters: settings.filters)
            }
        }
        return views
    }
}
