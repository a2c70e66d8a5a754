package dev.cutover.ui.common;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.property.Property;
import javafx.beans.value.ObservableValue;
import javafx.collections.ListChangeListener;
import javafx.collections.MapChangeListener;
import javafx.collections.ObservableList;
import javafx.collections.ObservableMap;

/**
 * Records every binding and listener a view makes to its model, so that leaving the screen releases
 * them all with one {@link #dispose()}: a view that is gone must not keep reacting to its model.
 */
public final class Binder {

  private final List<Runnable> releases = new ArrayList<>();

  public <T> void bind(Property<T> target, ObservableValue<? extends T> source) {
    target.bind(source);
    releases.add(target::unbind);
  }

  public <T> void bindBidirectional(Property<T> a, Property<T> b) {
    a.bindBidirectional(b);
    releases.add(() -> a.unbindBidirectional(b));
  }

  /** Calls {@code action} now with the current value and again on every change. */
  public <T> void watch(ObservableValue<T> value, Consumer<? super T> action) {
    releases.add(value.subscribe(action)::unsubscribe);
  }

  /** Calls {@code action} on every change, not now. */
  public <T> void onChange(ObservableValue<T> value, Consumer<? super T> action) {
    releases.add(value.subscribe((was, is) -> action.accept(is))::unsubscribe);
  }

  /** Calls {@code action} now and on every change of the list. */
  public <T> void watchList(ObservableList<T> list, Runnable action) {
    ListChangeListener<T> listener = c -> action.run();
    list.addListener(listener);
    releases.add(() -> list.removeListener(listener));
    action.run();
  }

  /** Calls {@code action} now and on every change of the map. */
  public <K, V> void watchMap(ObservableMap<K, V> map, Runnable action) {
    MapChangeListener<K, V> listener = c -> action.run();
    map.addListener(listener);
    releases.add(() -> map.removeListener(listener));
    action.run();
  }

  /** Content of {@code target} follows {@code source} while the view lives. */
  public <T> void mirror(ObservableList<T> target, ObservableList<? extends T> source) {
    watchList(source, () -> target.setAll(source));
  }

  public void dispose() {
    for (int i = releases.size() - 1; i >= 0; i--) {
      releases.get(i).run();
    }
    releases.clear();
  }

  /** How many bindings and listeners are held: zero after {@link #dispose()}. */
  public int held() {
    return releases.size();
  }
}
