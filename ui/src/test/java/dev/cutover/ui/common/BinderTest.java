package dev.cutover.ui.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.junit.jupiter.api.Test;

class BinderTest {

  @Test
  void disposeReleasesEveryBindingAndListenerSoTheModelNoLongerReachesTheView() {
    StringProperty model = new SimpleStringProperty("a");
    StringProperty editable = new SimpleStringProperty("x");
    ObservableList<String> items = FXCollections.observableArrayList("1");
    StringProperty label = new SimpleStringProperty();
    StringProperty field = new SimpleStringProperty();
    List<String> seen = new ArrayList<>();
    ObservableList<String> shown = FXCollections.observableArrayList();

    Binder binder = new Binder();
    binder.bind(label, model);
    binder.bindBidirectional(field, editable);
    binder.watch(model, seen::add);
    binder.mirror(shown, items);
    assertEquals(List.of("a"), seen, "watch sees the current value at once");
    assertEquals(4, binder.held());

    model.set("b");
    items.add("2");
    assertEquals("b", label.get());
    assertEquals(List.of("1", "2"), shown);

    binder.dispose();
    model.set("c");
    editable.set("y");
    items.add("3");
    assertEquals(0, binder.held());
    assertFalse(label.isBound());
    assertEquals("b", label.get());
    assertEquals("x", field.get());
    assertEquals(List.of("a", "b"), seen);
    assertEquals(List.of("1", "2"), shown);
  }
}
